/**
 * client.ts: a signing client for the spec's signed operations. Per operation a builder that
 * picks the struct variant from the body (`x-eip712-signed` variants), maps body names to
 * typed-data names (`messageBodyFields`), checks each value's EIP-712 type at run time, signs
 * through an injected signer and writes the body text with the nonce as an exact JSON integer;
 * and `createClient`, which sends those bodies with openapi-fetch's `{ data, error, response }`
 * results, Retry-After and exponential backoff, per-wallet nonces and rate-limit headers.
 *
 * The tables (which operations are signed, their bodies and variants, the header names) come
 * from the spec; the run-time part below them is fixed text. The generated file imports only its
 * siblings, so a consumer needs no package of ours at run time.
 */
import type { WriterFunction } from 'ts-morph'
import type { Contract } from '../src/contract/load.ts'
import { deref, getPointer, isObject, readSignedSchema, type Operation, type SignedSchema } from '../src/contract/model.ts'
import { stringLiteral, writeValue, type NameRegistry } from './names.ts'
import { specError, type SchemaContext } from './schema.ts'

interface SignedOperation {
  readonly op: Operation
  /** The signed body schemas it takes (one, or the members of a `oneOf`), by component name. */
  readonly bodies: readonly { readonly name: string; readonly signed: SignedSchema }[]
}

/** Operations whose body is signed field by field (a derived signature, the perp Agent, is not built here). */
export function signedOperations(spec: Contract<'typedData'>): SignedOperation[] {
  const out: SignedOperation[] = []
  for (const op of spec.operations) {
    const schema = op.requestSchema
    if (!schema) continue
    const members = Array.isArray(schema.oneOf) ? schema.oneOf : [schema]
    const bodies: { name: string; signed: SignedSchema }[] = []
    for (const m of members) {
      const ref = isObject(m) && typeof m.$ref === 'string' ? m.$ref : undefined
      const signed = readSignedSchema(deref(spec.doc, m))
      if (!ref || !signed || signed.derived !== undefined) continue
      bodies.push({ name: ref.split('/').at(-1)!, signed })
    }
    if (bodies.length > 0 && bodies.length === members.length) out.push({ op, bodies })
  }
  return out
}

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

export function emitClient(spec: Contract<'typedData'>, names: NameRegistry): WriterFunction[] | undefined {
  const ops = signedOperations(spec)
  if (ops.length === 0) return undefined
  const ctx: SchemaContext = { doc: spec.doc, file: spec.file, lineOf: (p) => spec.lineOf(p), refName: () => undefined }
  const typedData = names.nameOf('typedData')!
  const bodyFields = names.nameOf('messageBodyFields')!
  const operations = names.nameOf('operations')!
  const errorCode = names.nameOf('errorCode')

  const bodies: Record<string, { signature: string; variants: SignedSchema['variants'] }> = {}
  const primaryTypes: Record<string, string> = {}
  for (const { op, bodies: list } of ops) {
    for (const b of list) {
      for (const v of b.signed.variants) {
        const m = spec.typedData.messages[v.message]
        if (!m) throw specError(ctx, `${op.pointer}/requestBody`, `${b.name} is signed as ${v.message}, which x-eip712.messages lacks`)
        if (!m.fields.some((f) => f.name === 'nonce'))
          throw specError(
            ctx,
            `/x-eip712/messages/${v.message}`,
            `message ${v.message} has no nonce field, so no client can send it twice safely`,
          )
        primaryTypes[m.primaryType] ??= op.operationId
      }
      bodies[b.name] = { signature: b.signed.signature, variants: b.signed.variants }
    }
  }
  const opTable = Object.fromEntries(
    ops.map(({ op, bodies: list }) => [op.operationId, { method: op.method, path: op.path, bodies: list.map((b) => b.name) }]),
  )
  const success = (op: Operation) => Object.keys(op.responses).find((s) => /^2\d\d$/.test(s)) ?? '200'

  // The run-time text declares these names as they are; a schema that already took one would make `export *` ambiguous.
  for (const fixed of FIXED_NAMES) {
    if (names.has(fixed)) throw specError(ctx, '/components/schemas', `a declaration named ${fixed} collides with client.ts's own ${fixed}`)
    names.claim(fixed)
  }
  const n = {
    bodies: names.claim('signedBodies'),
    ops: names.claim('signedOperations'),
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
      w.writeLine(`import type { ${operations} } from './types.js';`)
      if (errorCode) w.writeLine(`import type { ${errorCode} } from './errors.js';`)
      w.blankLine()
    },
    table(n.bodies, bodies, 'Each signed body schema: its signature field and its struct variants (`x-eip712-signed`).'),
    table(n.ops, opTable, 'The signed operations: method, path and the body schemas each one takes.'),
    table(n.headers, rateLimitHeaderNames(spec), 'The response headers every result reads its rate-limit counters from.'),
    (w) => w.write(runtime({ ...n, typedData, bodyFields, errorCode: errorCode ?? 'string' })),
  ]

  // The typed surface: one input type, one builder and one client method per signed operation.
  const builders: string[] = []
  const methods: string[] = []
  for (const { op } of ops) {
    const id = op.operationId
    const Input = names.claim(`${id[0]!.toUpperCase()}${id.slice(1)}Input`)
    const builder = names.claimAs(`builder:${id}`, id)
    const data = `${operations}[${stringLiteral(id)}]['responses'][${success(op)}]`
    builders.push(
      `/** Signs a ${op.method} ${op.path} body: \`{ body, typedData, signature }\`. The nonce comes from \`options.nonce\`. */`,
      `export type ${Input} = Unsigned<${operations}[${stringLiteral(id)}]['body']>;`,
      `export function ${builder}(input: ${Input}, options: BuildOptions): Promise<SignedRequest> {`,
      `  return build(${n.ops}[${stringLiteral(id)}].bodies, input as Record<string, unknown>, options);`,
      '}',
      '',
    )
    methods.push(`  /** ${op.method} ${op.path}, signed and sent; retried on 429, 503 and dropped connections. */`)
    methods.push(`  ${propertyKey(id)}(input: ${Input}): Promise<Result<${data}>>;`)
  }
  const byType = Object.entries(primaryTypes).map(([t, id]) => `  ${propertyKey(t)}: ${names.nameOf(`builder:${id}`) ?? id},`)
  out.push((w) => {
    for (const line of builders) w.writeLine(line)
    w.writeLine('/** The builder of each signed primary type (both PlaceOrder variants share one). */')
    w.writeLine(`export const ${names.claim('signedBuilders')} = {`)
    for (const line of byType) w.writeLine(line)
    w.writeLine('} as const;').blankLine()
    w.writeLine('/** One method per signed operation. */')
    w.writeLine(`export interface ${names.claim('Client')} {`)
    for (const line of methods) w.writeLine(line)
    w.writeLine('}').blankLine()
    w.write(
      clientFactory(
        ops.map(({ op }) => op.operationId),
        n.ops,
      ),
    )
  })
  return out
}

const FIXED_NAMES = [
  'Hex',
  'TypedDataPayload',
  'SignTypedData',
  'Signer',
  'NonceSource',
  'monotonicNonces',
  'BuildOptions',
  'SignedRequest',
  'Unsigned',
  'checkSignature',
  'parseJson',
  'RetryOptions',
  'ClientOptions',
  'RateLimit',
  'ApiError',
  'Result',
  'createClient',
] as const

function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : stringLiteral(name)
}

function clientFactory(ids: readonly string[], ops: string): string {
  return `/**
 * A client whose every method signs its body, sends it and returns \`{ data, error, response }\`
 * (as openapi-fetch does) with the rate-limit counters. A REJECTED order is \`data\`, not an
 * exception; an unknown error code is \`error.code\`, still a string.
 */
export function createClient(options: ClientOptions): Client {
  const nonces = options.nonces ?? monotonicNonces();
  const send = sender(options);
  const call = async (id: keyof typeof ${ops}, input: unknown): Promise<Result<any>> => {
    const op = ${ops}[id];
    const request = await build(op.bodies, input as Record<string, unknown>, {
      signer: options.signer,
      nonce: nonces,
      ...(options.domain !== undefined ? { domain: options.domain } : {}),
    });
    // A retry sends the same bytes: a failed request may be retried with its nonce.
    const response = await send(op.method, op.path, request.body);
    return readResult(response, request, options.parseJson ?? parseJson);
  };
  return {
${ids.map((id) => `    ${propertyKey(id)}: (input) => call(${stringLiteral(id)}, input),`).join('\n')}
  };
}
`
}

interface RuntimeNames {
  readonly bodies: string
  readonly ops: string
  readonly headers: string
  readonly typedData: string
  readonly bodyFields: string
  readonly errorCode: string
}

/** The fixed run-time part: signer and nonce types, value checks, the builder, JSON, retries. */
function runtime(n: RuntimeNames): string {
  return `export type Hex = \`0x\${string}\`;

/** What a signer signs: the argument of viem's \`signTypedData\`. */
export interface TypedDataPayload {
  domain: { name?: string; version?: string; chainId?: number; verifyingContract?: Hex };
  types: { readonly [struct: string]: readonly { readonly name: string; readonly type: string }[] };
  primaryType: string;
  message: { [field: string]: string | bigint | boolean };
}

/** Any \`signTypedData(typedData) → hex\` function. */
export type SignTypedData = (typedData: TypedDataPayload) => Promise<Hex>;

/** A viem account (\`privateKeyToAccount\`), a viem wallet client with an account, or a plain function. */
export type Signer =
  | SignTypedData
  | {
      signTypedData(typedData: TypedDataPayload): Promise<Hex>;
      readonly address?: Hex;
      readonly account?: { readonly address: Hex } | undefined;
    };

/** Hands out nonces per trading wallet. */
export interface NonceSource {
  next(wallet: string): bigint | Promise<bigint>;
}

/**
 * Increasing nonces per wallet: the clock in microseconds, or one more than the last one handed
 * out when the clock has not moved past it.
 */
export function monotonicNonces(nowMs: () => number = Date.now): NonceSource {
  const last = new Map<string, bigint>();
  return {
    next(wallet: string): bigint {
      const key = wallet.toLowerCase();
      const prev = last.get(key) ?? 0n;
      const now = BigInt(Math.floor(nowMs())) * 1000n;
      const nonce = now > prev ? now : prev + 1n;
      last.set(key, nonce);
      return nonce;
    },
  };
}

export interface BuildOptions {
  readonly signer: Signer;
  /** A fixed nonce or a source of them: there is no default, so a forgotten nonce does not compile. */
  readonly nonce: bigint | NonceSource;
  /** Replaces the signing domain whole (e.g. another chain ID or the service's real name). */
  readonly domain?: TypedDataPayload['domain'];
}

export interface SignedRequest {
  /** The JSON body, byte for byte what was signed: decimals as given, the nonce an exact integer. */
  readonly body: string;
  readonly typedData: TypedDataPayload;
  readonly signature: Hex;
  readonly nonce: bigint;
}

/** A body without what the builder supplies: the signature, the nonce, and the wallet when the signer has an address. */
export type Unsigned<T> = T extends unknown
  ? Omit<T, 'signature' | 'nonce' | 'wallet'> & ('wallet' extends keyof T ? { wallet?: T['wallet'] } : {})
  : never;

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** The signer's answer as the service accepts it: 65 bytes, low s, v 27 or 28 (0 and 1 are rewritten). */
export function checkSignature(signature: unknown): Hex {
  if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]{130}$/.test(signature)) {
    throw new Error('the signer returned no 65-byte hex signature');
  }
  const r = BigInt(\`0x\${signature.slice(2, 66)}\`);
  const s = BigInt(\`0x\${signature.slice(66, 130)}\`);
  let v = Number.parseInt(signature.slice(130), 16);
  if (v === 0 || v === 1) v += 27;
  if (v !== 27 && v !== 28) throw new Error(\`the signer returned v = \${v}; the service takes 27 or 28\`);
  if (r === 0n || r >= SECP256K1_N || s === 0n || s >= SECP256K1_N) throw new Error('the signer returned an out-of-range signature');
  if (s > SECP256K1_N / 2n) throw new Error('the signer returned a high-s signature, which the service refuses');
  return \`0x\${signature.slice(2, 130)}\${v.toString(16)}\` as Hex;
}

/** A value of an EIP-712 field, checked against its type: a number price or a string nonce never gets signed. */
function checked(field: string, type: string, value: unknown): string | bigint | boolean {
  const bits = /^u?int(\\d*)$/.exec(type);
  if (bits) {
    const size = BigInt(bits[1] || '256');
    const min = type.startsWith('u') ? 0n : -(1n << (size - 1n));
    const max = type.startsWith('u') ? (1n << size) - 1n : (1n << (size - 1n)) - 1n;
    if (typeof value !== 'bigint' || value < min || value > max) throw new TypeError(\`\${field} must be a bigint in \${min}..\${max}\`);
    return value;
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw new TypeError(\`\${field} must be a boolean\`);
    return value;
  }
  if (typeof value !== 'string') throw new TypeError(\`\${field} must be a string, signed and sent exactly as written\`);
  if (type === 'address' && !/^0x[0-9a-fA-F]{40}$/.test(value)) throw new TypeError(\`\${field} must be a 0x-prefixed 20-byte address\`);
  if (type.startsWith('bytes') && !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw new TypeError(\`\${field} must be 0x-prefixed hex\`);
  // Addresses are 20 bytes whatever their case; lower case keeps checksumming signers quiet.
  return type === 'address' ? value.toLowerCase() : value;
}

function signerAddress(signer: Signer): string | undefined {
  return typeof signer === 'function' ? undefined : (signer.address ?? signer.account?.address);
}

type MessageId = keyof typeof ${n.typedData};

/** Picks the body schema and its struct variant from the fields present, then signs. */
async function build(schemas: readonly (keyof typeof ${n.bodies})[], input: Record<string, unknown>, options: BuildOptions): Promise<SignedRequest> {
  const given = Object.keys(input).filter((k) => input[k] !== undefined);
  for (const schema of schemas) {
    const variants: readonly { message: string; whenPresent?: string; whenAbsent?: string }[] = ${n.bodies}[schema].variants;
    const variant = variants.find(
      (v) => (v.whenPresent === undefined || given.includes(v.whenPresent)) && (v.whenAbsent === undefined || !given.includes(v.whenAbsent)),
    );
    if (!variant) continue;
    const id = variant.message as MessageId;
    const td = ${n.typedData}[id];
    const fields: readonly { name: string; type: string }[] = (td.types as Record<string, readonly { name: string; type: string }[]>)[td.primaryType]!;
    const bodyName = (f: string): string => (${n.bodyFields}[id] as Record<string, string>)[f] ?? f;
    const accepted = fields.map((f) => bodyName(f.name)).filter((b) => b !== 'nonce');
    if (!given.every((k) => accepted.includes(k))) continue;
    const wallet = input.wallet ?? signerAddress(options.signer);
    const owner = typeof wallet === 'string' ? wallet : (signerAddress(options.signer) ?? '');
    // A JavaScript caller can pass anything: the value is checked with the other fields below.
    const nonce = typeof options.nonce === 'object' && options.nonce !== null ? await options.nonce.next(owner) : options.nonce;
    const values: Record<string, unknown> = { ...input, nonce, ...(fields.some((f) => f.name === 'wallet') ? { wallet } : {}) };
    const message: TypedDataPayload['message'] = {};
    for (const f of fields) message[f.name] = checked(bodyName(f.name), f.type, values[bodyName(f.name)]);
    const payload: TypedDataPayload = { domain: options.domain ?? td.domain, types: td.types, primaryType: td.primaryType, message };
    const raw = typeof options.signer === 'function' ? await options.signer(payload) : await options.signer.signTypedData(payload);
    const signature = checkSignature(raw);
    const signatureField = ${n.bodies}[schema].signature;
    const parts = fields.map((f) => \`\${JSON.stringify(bodyName(f.name))}:\${jsonValue(values[bodyName(f.name)])}\`);
    parts.push(\`\${JSON.stringify(signatureField)}:\${JSON.stringify(signature)}\`);
    return { body: \`{\${parts.join(',')}}\`, typedData: payload, signature, nonce: nonce as bigint };
  }
  const known = schemas.flatMap((s) => ${n.bodies}[s].variants.map((v) => v.message)).join(' or ');
  throw new TypeError(\`no signed body (\${known}) takes the fields \${given.join(', ') || '(none)'}\`);
}

/** A body value as JSON text: a bigint as its digits, never through a double. */
function jsonValue(value: unknown): string {
  return typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}

/**
 * JSON.parse that keeps integers exact: one past 2^53 becomes a bigint instead of a rounded
 * number. Strings are copied as they are, so a digit run inside one is never touched.
 */
export function parseJson(text: string): unknown {
  let marked = '';
  let big = false;
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\\\' ? 2 : 1;
      marked += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?/.exec(text.slice(i, i + 400));
      const token = m?.[0] || c;
      const integer = m !== null && m[1] === undefined && m[2] === undefined;
      if (integer && !Number.isSafeInteger(Number(token))) {
        marked += \`"\\\\u0000int:\${token}"\`;
        big = true;
      } else marked += token;
      i += token.length;
    } else {
      marked += c;
      i++;
    }
  }
  if (!big) return JSON.parse(text);
  return JSON.parse(marked, (_key, value) => (typeof value === 'string' && value.startsWith('\\u0000int:') ? BigInt(value.slice(5)) : value));
}

export interface RetryOptions {
  /** Retries after the first try (default 5). */
  readonly retries?: number;
  /** Backoff before the first retry, doubled on each consecutive one (default 250 ms). */
  readonly baseDelayMs?: number;
  readonly factor?: number;
  readonly maxDelayMs?: number;
  /** HTTP statuses retried (default 429 and 503); a dropped connection is always retried. */
  readonly statuses?: readonly number[];
  readonly sleep?: (ms: number) => Promise<void>;
}

export interface ClientOptions {
  /** The service's base URL, no trailing slash. */
  readonly baseUrl: string;
  readonly signer: Signer;
  readonly fetch?: (url: string, init: { method: string; headers: Record<string, string>; body: string }) => Promise<Response>;
  /** Default: \`monotonicNonces()\`, one increasing sequence per wallet. */
  readonly nonces?: NonceSource;
  /** \`false\` sends once; otherwise Retry-After plus exponential backoff on consecutive 429s. */
  readonly retry?: RetryOptions | false;
  readonly domain?: TypedDataPayload['domain'];
  /** Default: \`parseJson\`, exact for integers past 2^53. */
  readonly parseJson?: (text: string) => unknown;
}

/** The rate-limit counters of a response; null where the header is absent. */
export interface RateLimit {
  readonly limit: number | null;
  readonly remaining: number | null;
  readonly reset: number | null;
  readonly retryAfter: number | null;
}

export interface ApiError {
  readonly status: number;
  /** Branch on this; a code this version does not know is still a string, never a crash. */
  readonly code: ${n.errorCode} | null;
  /** For people: show or log it, never parse it. */
  readonly message: string | null;
  readonly body: unknown;
}

export type Result<T> =
  | { readonly data: T; readonly error?: undefined; readonly response: Response; readonly rateLimit: RateLimit; readonly request: SignedRequest }
  | { readonly data?: undefined; readonly error: ApiError; readonly response: Response; readonly rateLimit: RateLimit; readonly request: SignedRequest };

function header(response: Response, name: string | null): number | null {
  const text = name === null ? null : response.headers.get(name);
  if (text === null || text.trim() === '') return null;
  const value = Number(text);
  if (Number.isFinite(value)) return value;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function rateLimitOf(response: Response): RateLimit {
  return {
    limit: header(response, ${n.headers}.limit),
    remaining: header(response, ${n.headers}.remaining),
    reset: header(response, ${n.headers}.reset),
    retryAfter: header(response, ${n.headers}.retryAfter),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** fetch with the retry policy: Retry-After is the floor, and the backoff on top grows on every consecutive retry. */
function sender(options: ClientOptions): (method: string, path: string, body: string) => Promise<Response> {
  const doFetch = options.fetch ?? ((url, init) => fetch(url, init));
  const policy = options.retry === false ? { retries: 0 } : (options.retry ?? {});
  const retries = policy.retries ?? 5;
  const statuses = policy.statuses ?? [429, 503];
  const wait = policy.sleep ?? sleep;
  return async (method, path, body) => {
    for (let attempt = 0; ; attempt++) {
      let response: Response | undefined;
      let failure: unknown;
      try {
        response = await doFetch(\`\${options.baseUrl}\${path}\`, { method, headers: { 'content-type': 'application/json' }, body });
      } catch (err) {
        failure = err;
      }
      if (attempt >= retries || (response !== undefined && !statuses.includes(response.status))) {
        if (response !== undefined) return response;
        throw failure;
      }
      const backoff = Math.min(policy.maxDelayMs ?? 30_000, (policy.baseDelayMs ?? 250) * (policy.factor ?? 2) ** attempt);
      const after = response === undefined ? null : rateLimitOf(response).retryAfter;
      await response?.body?.cancel();
      await wait(backoff + (after ?? 0) * 1000);
    }
  };
}

async function readResult(response: Response, request: SignedRequest, parse: (text: string) => unknown): Promise<Result<any>> {
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === '' ? null : parse(text);
  } catch {
    body = text;
  }
  const rateLimit = rateLimitOf(response);
  if (response.ok) return { data: body, response, rateLimit, request };
  const fields = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const error: ApiError = {
    status: response.status,
    code: typeof fields.code === 'string' ? fields.code : null,
    message: typeof fields.message === 'string' ? fields.message : null,
    body,
  };
  return { error, response, rateLimit, request };
}

`
}
