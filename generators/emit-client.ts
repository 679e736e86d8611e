/**
 * client.ts: a signing client for every operation of the spec. Per field-by-field signed
 * operation a builder that picks the struct variant from the body (`x-eip712-signed` variants),
 * maps body names to typed-data names (`messageBodyFields`), checks each value's EIP-712 type at
 * run time, signs through an injected signer and writes the body with the nonce as an exact JSON
 * integer; a builder for the perp Agent (msgpack action hash); and `createClient`, one method per
 * operation (signed bodies, batches of signed items, the perp exchange, plain reads), each
 * answering openapi-fetch's `{ data, error, response }` with Retry-After and exponential
 * backoff, per-wallet nonces and rate-limit headers. Request and response types come from the
 * openapi-fetch `paths` interface of types.ts.
 *
 * The tables come from the spec (client-plans.ts); the run-time part is the client runtime's
 * source (src/client-runtime/, carried here as client-runtime.ts), pasted after a
 * `runtimeTables` object that hands it the tables. The generated file imports only its
 * siblings, so a consumer needs no package of ours at run time.
 */
import type { WriterFunction } from 'ts-morph'
import type { Contract } from '../src/contract/load.ts'
import { getPointer, isObject } from '../src/contract/model.ts'
import { type BodyPlan, clientPlans, type OperationPlan } from './client-plans.ts'
import { RUNTIME_TEXT } from './client-runtime.ts'
import { stringLiteral, writeValue, type NameRegistry } from './names.ts'
import { specError, type SchemaContext } from './schema.ts'

/** The header names the spec declares for the rate-limit counters and Retry-After. */
function rateLimitHeaderNames(spec: Contract): Record<string, string | null> {
  const components = getPointer(spec.doc, '/components/headers')
  const names = isObject(components) ? Object.keys(components) : []
  const find = (re: RegExp) => names.find((n) => re.test(n)) ?? null
  return {
    limit: find(/ratelimit-limit$/i),
    remaining: find(/ratelimit-remaining$/i),
    reset: find(/ratelimit-reset$/i),
    retryAfter: find(/^retry-after$/i),
  }
}

/** Does a body plan sign anything (a body, a batch item or a perp action)? */
function isSigned(plan: BodyPlan | null): boolean {
  if (plan === null || 'plain' in plan) return false
  if ('items' in plan) return isSigned(plan.items)
  if ('props' in plan) return Object.values(plan.props).some(isSigned)
  return true
}

/** What a method of the client takes, returns as `request`, and which builder (if any) it gets. */
function methodKind(plan: OperationPlan): 'signed' | 'batch' | 'perp' | 'body' | 'query' | 'none' {
  const body = plan.body
  if (body === null) return plan.query === 'none' && !plan.pathParams ? 'none' : 'query'
  if ('perp' in body) return 'perp'
  if ('signed' in body) return 'signed'
  return isSigned(body) ? 'batch' : 'body'
}

export function emitClient(spec: Contract<'typedData'>, names: NameRegistry): WriterFunction[] | undefined {
  const ctx: SchemaContext = { doc: spec.doc, file: spec.file, lineOf: (p) => spec.lineOf(p), refName: () => undefined }
  const plans = clientPlans(spec, ctx)
  if (!Object.values(plans.operations).some((p) => isSigned(p.body))) return undefined
  const typedData = names.nameOf('typedData')!
  const bodyFields = names.nameOf('messageBodyFields')!
  const paths = names.nameOf('fetchPaths')!
  const errorCode = names.nameOf('errorCode')

  const primaryTypes: Record<string, string> = {}
  for (const [id, plan] of Object.entries(plans.operations)) {
    const body = plan.body
    if (body === null || !('signed' in body)) continue
    for (const schema of body.signed) {
      for (const v of plans.bodies[schema]!.variants) {
        const m = spec.typedData.messages[v.message]
        if (!m) throw specError(ctx, `/components/schemas/${schema}`, `${schema} is signed as ${v.message}, which x-eip712.messages lacks`)
        if (!m.fields.some((f) => f.name === 'nonce'))
          throw specError(
            ctx,
            `/x-eip712/messages/${v.message}`,
            `message ${v.message} has no nonce field, so no client can send it twice safely`,
          )
        primaryTypes[m.primaryType] ??= id
      }
    }
  }

  // The run-time text declares these names as they are; a schema that already took one would make `export *` ambiguous.
  for (const fixed of [...FIXED_NAMES, ...RUNTIME_LINKS]) {
    if (names.has(fixed)) throw specError(ctx, '/components/schemas', `a declaration named ${fixed} collides with client.ts's own ${fixed}`)
    names.claim(fixed)
  }
  // Its own top-level names too, so no builder or input type of an operation shadows one (an operationId `build`).
  for (const local of RUNTIME_LOCALS) if (!names.has(local)) names.claim(local)
  const n = {
    bodies: names.claim('signedBodies'),
    plans: names.claim('operationPlans'),
    headers: names.claim('rateLimitHeaders'),
  }
  const table =
    (name: string, value: unknown, doc: string): WriterFunction =>
    (w) => {
      w.writeLine(`/** ${doc} */`)
      w.write(`export const ${name} = `)
      writeValue(w, value)
      w.write(' as const;').newLine().blankLine()
    }

  const out: WriterFunction[] = [
    (w) => {
      w.writeLine(`import { ${typedData}, ${bodyFields} } from './typed-data.js';`)
      w.writeLine(`import type { ${paths} } from './types.js';`)
      if (errorCode) w.writeLine(`import type { ${errorCode} } from './errors.js';`)
      w.blankLine()
    },
    table(n.bodies, plans.bodies, 'Each signed body schema: its signature field and its struct variants (`x-eip712-signed`).'),
    table(
      n.plans,
      plans.operations,
      'How each operation is sent: method, path, query parameters, and how its body is built (signed, a batch of signed items, the perp Agent, plain).',
    ),
    table(n.headers, rateLimitHeaderNames(spec), 'The response headers every result reads its rate-limit counters from.'),
    (w) => {
      // The names the run-time text reads its tables by (src/client-runtime/tables.ts stands in for these in the runtime's own tests).
      w.writeLine('/** The tables the run-time part below walks. */')
      w.writeLine(
        `const runtimeTables = { bodies: ${n.bodies}, plans: ${n.plans}, headers: ${n.headers}, ${typedData === 'typedData' ? 'typedData' : `typedData: ${typedData}`}, bodyFields: ${bodyFields} } as const satisfies RuntimeTables;`,
      )
      w.writeLine(`type RuntimeErrorCode = ${errorCode ?? 'string'};`).blankLine()
      w.write(RUNTIME_TEXT)
    },
  ]

  // The typed surface: per operation an input type (from `paths`), a builder where one signs, and a client method.
  const lines: string[] = []
  const methods: string[] = []
  for (const [id, plan] of Object.entries(plans.operations)) {
    const op = `${paths}[${stringLiteral(plan.path)}][${stringLiteral(plan.method.toLowerCase())}]`
    const kind = methodKind(plan)
    const Input = kind === 'none' ? '' : names.claim(`${id[0]!.toUpperCase()}${id.slice(1)}Input`)
    const data = `SuccessData<${op}>`
    const what = `${plan.method} ${plan.path}`
    const inputType: Record<typeof kind, string> = {
      signed: `UnsignedDeep<RequestBodyOf<${op}>>`,
      batch: `UnsignedDeep<RequestBodyOf<${op}>>`,
      perp: `WideInts<Omit<RequestBodyOf<${op}>, 'nonce' | ${stringLiteral(plan.body !== null && 'perp' in plan.body ? plan.body.perp.signature : 'signature')}>>`,
      body: `RequestBodyOf<${op}>`,
      query: plan.pathParams ? (plan.query === 'none' ? `PathOf<${op}>` : `QueryOf<${op}> & PathOf<${op}>`) : `QueryOf<${op}>`,
      none: '',
    }
    if (Input)
      lines.push(
        `/** What \`${id}\` takes: the ${kind === 'query' ? (plan.pathParams ? 'path and query parameters' : 'query parameters') : 'body'} of ${what}${kind === 'signed' || kind === 'batch' || kind === 'perp' ? ' without what the builder signs in' : ''}. */`,
        `export type ${Input} = ${inputType[kind]};`,
        '',
      )
    const body = plan.body
    if (body !== null && 'signed' in body) {
      const builder = names.claimAs(`builder:${id}`, id)
      lines.push(
        `/** Signs a ${what} body: \`{ body, typedData, signature, nonce }\`. The nonce comes from \`options.nonce\`. */`,
        `export function ${builder}(input: ${Input}, options: BuildOptions): Promise<SignedRequest> {`,
        `  return build(${n.plans}[${stringLiteral(id)}].body.signed, input as Record<string, unknown>, options);`,
        '}',
        '',
      )
    }
    if (body !== null && 'perp' in body) {
      const builder = names.claimAs(`builder:${id}`, id)
      lines.push(
        `/** Signs a ${what} request as the perp Agent over the msgpack action hash: \`{ body, typedData, signature, nonce, connectionId }\`. */`,
        `export function ${builder}(input: ${Input}, options: PerpBuildOptions): Promise<PerpSignedRequest> {`,
        `  return buildPerp(${n.plans}[${stringLiteral(id)}].body.perp, input as Record<string, unknown>, options);`,
        '}',
        '',
      )
    }
    const request = {
      signed: 'SignedRequest',
      batch: 'SignedBatch',
      perp: 'PerpSignedRequest',
      body: 'undefined',
      query: 'undefined',
      none: 'undefined',
    }[kind]
    const param =
      kind === 'none' ? '' : kind === 'query' && plan.query === 'optional' && !plan.pathParams ? `query?: ${Input}` : `input: ${Input}`
    const note = kind === 'signed' || kind === 'batch' ? 'signed and sent' : kind === 'perp' ? 'signed as the perp Agent and sent' : 'sent'
    methods.push(`  /** ${what}, ${note}; retried on 429, 503 and dropped connections. */`)
    methods.push(`  ${propertyKey(id)}(${param}): Promise<Result<${data}, ${request}>>;`)
  }
  const byType = Object.entries(primaryTypes).map(([t, id]) => `  ${propertyKey(t)}: ${names.nameOf(`builder:${id}`) ?? id},`)
  out.push((w) => {
    for (const line of lines) w.writeLine(line)
    w.writeLine('/** The builder of each signed primary type (both PlaceOrder variants share one). */')
    w.writeLine(`export const ${names.claim('signedBuilders')} = {`)
    for (const line of byType) w.writeLine(line)
    w.writeLine('} as const;').blankLine()
    w.writeLine('/** One method per operation of the spec. */')
    w.writeLine(`export interface ${names.claim('Client')} {`)
    for (const line of methods) w.writeLine(line)
    w.writeLine('}').blankLine()
    w.write(clientFactory(Object.keys(plans.operations)))
  })
  return out
}

/** What the run-time text exports, read off the text itself, and the factory written below it. */
const FIXED_NAMES = [
  ...[...RUNTIME_TEXT.matchAll(/^export (?:async )?(?:function|const|type|interface) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]!),
  'createClient',
]

/** Every top-level name of the run-time text, exported or not. */
const RUNTIME_LOCALS = [...RUNTIME_TEXT.matchAll(/^(?:export )?(?:async )?(?:function|const|type|interface) ([A-Za-z_$][\w$]*)/gm)].map(
  (m) => m[1]!,
)

/** Names client.ts declares for the run-time text to read its tables by. */
const RUNTIME_LINKS = ['runtimeTables', 'RuntimeErrorCode'] as const

function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : stringLiteral(name)
}

function clientFactory(ids: readonly string[]): string {
  return `/**
 * A client with one method per operation: each builds its request (signing what the spec signs),
 * sends it and returns \`{ data, error, response }\` (as openapi-fetch does) with the rate-limit
 * counters. A REJECTED order is \`data\`, not an exception; an unknown error code is
 * \`error.code\`, still a string.
 */
export function createClient(options: ClientOptions): Client {
  const call = caller(options);
  return {
${ids.map((id) => `    ${propertyKey(id)}: (input?: unknown) => call(${stringLiteral(id)}, input),`).join('\n')}
  };
}
`
}
