/**
 * The toolkit's own rules over a spec, beyond OpenAPI validity: the catalog, the EIP-712
 * mapping of signed bodies, rate-limit headers and `x-assumed` hygiene. Pure: spec in, findings out.
 */
import { RATE_LIMIT_HEADERS, WINDOW_HEADERS } from '../contract/headers.ts'
import type { Contract, LayerName } from '../contract/load.ts'
import { deref, getPointer, isObject, readSignedSchema, responseErrorCodes, type JsonObject } from '../contract/model.ts'
import { toPointer } from '../contract/source.ts'
import { missingServerNeeds } from '../contract/server-needs.ts'
import { passedOptionalLine, passedOptionalUntil } from '../contract/optional-until.ts'
import type { LintFinding } from './findings.ts'
import { LINT_RULES, type LintRuleId } from './registry.ts'

const UINT64_MAX = 18446744073709551615n
const RATE_HEADERS = WINDOW_HEADERS
const ELEMENTARY =
  /^(address|bool|string|bytes([1-9]|[12][0-9]|3[0-2])?|u?int(8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144|152|160|168|176|184|192|200|208|216|224|232|240|248|256)?)$/

type Emit = (rule: LintRuleId, pointer: string, message: string) => void

function has<N extends LayerName>(spec: Contract, layer: N): spec is Contract<N> {
  return spec[layer] !== undefined
}

/** Runs every rule whose layer the spec has; the registry says which rules need which layer. */
/** `today` (YYYY-MM-DD) judges x-optional-until dates. */
export function lintSpec(spec: Contract, today: string = new Date().toISOString().slice(0, 10)): LintFinding[] {
  const findings: LintFinding[] = []
  const emit: Emit = (rule, pointer, message) => findings.push({ rule, severity: LINT_RULES[rule].level, pointer, message })
  if (has(spec, 'catalog')) lintCatalog(spec, emit)
  if (has(spec, 'typedData')) {
    lintTypedData(spec, emit)
    lintSignedBodies(spec, emit)
  }
  if (has(spec, 'rateLimits')) lintRateLimits(spec, emit)
  if (has(spec, 'catalog'))
    for (const m of missingServerNeeds(spec)) emit('server-needs', m.pointer, `the reference server needs ${m.what}`)
  lintRequestBodies(spec, emit)
  lintAssumed(spec.doc, [], emit)
  for (const p of passedOptionalUntil(spec.doc, today)) emit('optional-until-passed', p.pointer, passedOptionalLine(p))
  return findings
}

function lintCatalog(spec: Contract<'catalog'>, emit: Emit): void {
  const base = `/${spec.catalogKey}`
  const seen = new Map<string, number>()
  const raw = spec.doc[spec.catalogKey] as unknown[]
  for (const entry of spec.catalog) {
    const at = `${base}/${entry.index}`
    const rawEntry = raw[entry.index]
    for (const key of ['code', 'surface', 'http_status', 'description', 'retryable', 'since', 'deprecated', 'legacy_error']) {
      if (!isObject(rawEntry) || !(key in rawEntry)) emit('catalog-entry-fields', at, `catalog entry ${String(entry.code)} has no "${key}"`)
    }
    if (entry.surface === 'http' && !/^[a-z][a-z0-9_]*$/.test(String(entry.code))) {
      emit('catalog-code-format', `${at}/code`, `code "${String(entry.code)}" is not a lowercase identifier`)
    }
    if (entry.surface === 'jsonrpc' && !Number.isInteger(entry.code)) {
      emit('catalog-code-format', `${at}/code`, `JSON-RPC code "${String(entry.code)}" is not an integer`)
    }
    const key = `${entry.surface}:${String(entry.code)}`
    const first = seen.get(key)
    if (first !== undefined) emit('catalog-code-unique', `${at}/code`, `duplicate code "${String(entry.code)}" (also entry ${first})`)
    else seen.set(key, entry.index)
  }

  const declared = new Map(spec.catalog.map((e) => [String(e.code), e]))
  const used = new Set<string>()
  const global = spec.doc['x-global-error-codes']
  if (isObject(global) && Array.isArray(global.codes)) {
    global.codes.forEach((c, i) => {
      used.add(String(c))
      if (!declared.has(String(c)))
        emit('catalog-code-undeclared', `/x-global-error-codes/codes/${i}`, `code "${String(c)}" is not in ${spec.catalogKey}`)
    })
  }
  // A shared response (`$ref` to components/responses) is reported once, where it is written.
  const reported = new Set<string>()
  for (const op of spec.operations) {
    for (const [status, response] of Object.entries(op.responses)) {
      const raw = getPointer(spec.doc, `${op.pointer}/responses/${status}`)
      const ref = isObject(raw) && typeof raw.$ref === 'string' ? raw.$ref.replace(/^#/, '') : undefined
      const at = ref ?? `${op.pointer}/responses/${status}`
      const where = ref ? `response ${ref.split('/').pop()} (HTTP ${status})` : `${op.method} ${op.path} ${status}`
      for (const code of responseErrorCodes(response)) {
        const key = String(code)
        used.add(key)
        if (reported.has(`${at} ${key}`)) continue
        reported.add(`${at} ${key}`)
        const entry = declared.get(key)
        if (!entry) emit('catalog-code-undeclared', at, `${where} uses code "${key}", which is not in ${spec.catalogKey}`)
        else if (!entry.httpStatus.includes(Number(status))) {
          emit('catalog-status-mismatch', at, `code "${key}" is catalogued with HTTP ${entry.httpStatus.join('/')} but ${where} returns it`)
        }
      }
    }
  }
  for (const entry of spec.catalog) {
    if (!entry.reserved && !used.has(String(entry.code))) {
      emit(
        'catalog-code-unused',
        `${base}/${entry.index}/code`,
        `code "${String(entry.code)}" is used by no response (mark it "reserved: true" if intended)`,
      )
    }
  }
}

function lintTypedData(spec: Contract<'typedData'>, emit: Emit): void {
  const { domainType, domains, messages } = spec.typedData
  const domainFields = domainType.map((f) => f.name)
  for (const [key, domain] of Object.entries(domains)) {
    const at = `/x-eip712/domains/${key}`
    for (const f of domainFields) {
      if (
        (domain as unknown as Record<string, unknown>)[f] === undefined ||
        String((domain as unknown as Record<string, unknown>)[f]) === 'undefined'
      ) {
        emit('eip712-domain-invalid', at, `domain "${key}" has no ${f}`)
      }
    }
    if (!Number.isSafeInteger(domain.chainId) || domain.chainId <= 0)
      emit('eip712-domain-invalid', `${at}/chainId`, `domain "${key}" chainId must be a positive integer`)
    if (!/^0x[0-9a-fA-F]{40}$/.test(domain.verifyingContract))
      emit('eip712-domain-invalid', `${at}/verifyingContract`, `domain "${key}" verifyingContract is not an address`)
  }
  for (const m of Object.values(messages)) {
    const at = `/x-eip712/messages/${m.id}`
    if (!(m.domain in domains)) emit('eip712-domain-invalid', `${at}/domain`, `message ${m.id} names unknown domain "${m.domain}"`)
    const names = new Set<string>()
    m.fields.forEach((f, i) => {
      if (!ELEMENTARY.test(f.type))
        emit('eip712-type-invalid', `${at}/fields/${i}/type`, `${m.id}.${f.name} has type "${f.type}", not an EIP-712 elementary type`)
      if (names.has(f.name)) emit('eip712-type-invalid', `${at}/fields/${i}/name`, `${m.id} lists field "${f.name}" twice`)
      names.add(f.name)
    })
  }
}

/** Does a body property schema carry values of this EIP-712 type? */
function typeMismatch(doc: Record<string, unknown>, propSchema: unknown, type: string): string | undefined {
  const s = deref(doc, propSchema) as JsonObject | undefined
  if (!isObject(s)) return 'has no schema'
  if (type === 'address')
    return s.type === 'string' && s.pattern === '^0x[0-9a-fA-F]{40}$' ? undefined : 'is not a 0x-prefixed 40-hex string'
  if (type === 'string') return s.type === 'string' ? undefined : 'is not a string'
  const int = /^uint(\d+)$/.exec(type)
  if (int) {
    const max = (1n << BigInt(int[1] ?? 0)) - 1n
    if (s.type !== 'integer') return 'is not an integer'
    if (s.minimum !== 0) return 'has no minimum 0'
    const declaredMax = typeof s.maximum === 'number' ? BigInt(Math.round(s.maximum)) : undefined
    // YAML numbers above 2^53 arrive rounded; compare at float precision for uint64.
    if (declaredMax === undefined || (max === UINT64_MAX ? Number(declaredMax) !== Number(max) : declaredMax !== max)) {
      return `has no maximum ${max}`
    }
  }
  return undefined
}

function lintSignedBodies(spec: Contract<'typedData'>, emit: Emit): void {
  const schemas = (isObject(spec.doc.components) && isObject(spec.doc.components.schemas) ? spec.doc.components.schemas : {}) as JsonObject
  for (const [name, schema] of Object.entries(schemas)) {
    const signed = readSignedSchema(schema)
    if (!signed || !isObject(schema)) continue
    const at = `/components/schemas/${name}`
    const props = isObject(schema.properties) ? schema.properties : {}
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : [])
    if (!(signed.signature in props))
      emit('eip712-field-unmapped', `${at}/x-eip712-signed`, `${name}: signature property "${signed.signature}" is not in the body`)
    const covered = new Set<string>([signed.signature])
    signed.variants.forEach((variant, vi) => {
      const message = spec.typedData.messages[variant.message]
      if (!message) {
        emit(
          'eip712-message-unknown',
          `${at}/x-eip712-signed/variants/${vi}/message`,
          `${name} is signed as "${variant.message}", which x-eip712.messages does not define`,
        )
        return
      }
      if (signed.derived) return
      const fieldNames = new Set(message.fields.map((f) => f.body))
      if (variant.whenPresent && !fieldNames.has(variant.whenPresent)) {
        emit(
          'eip712-field-unmapped',
          `${at}/x-eip712-signed/variants/${vi}`,
          `${variant.message} is chosen when "${variant.whenPresent}" is present but does not sign it`,
        )
      }
      if (variant.whenAbsent && fieldNames.has(variant.whenAbsent)) {
        emit(
          'eip712-field-unmapped',
          `${at}/x-eip712-signed/variants/${vi}`,
          `${variant.message} is chosen when "${variant.whenAbsent}" is absent but signs it`,
        )
      }
      message.fields.forEach((f, fi) => {
        covered.add(f.body)
        const fieldAt = `/x-eip712/messages/${message.id}/fields/${fi}`
        if (!(f.body in props)) {
          emit('eip712-field-unmapped', fieldAt, `${message.id}.${f.name} maps to body property "${f.body}", which ${name} does not have`)
          return
        }
        const bad = typeMismatch(spec.doc, props[f.body], f.type)
        if (bad)
          emit('eip712-type-mismatch', `${at}/properties/${f.body}`, `${name}.${f.body} ${bad}, but ${message.id}.${f.name} is ${f.type}`)
        const conditional = f.body === variant.whenPresent
        if (!conditional && !required.has(f.body))
          emit('eip712-field-unmapped', `${at}/required`, `${name}.${f.body} is signed by ${message.id} but not required`)
      })
    })
    if (signed.derived) continue
    for (const prop of Object.keys(props)) {
      if (!covered.has(prop))
        emit('eip712-property-unsigned', `${at}/properties/${prop}`, `${name}.${prop} is sent but signed by no message variant`)
    }
  }
}

function lintRateLimits(spec: Contract<'rateLimits'>, emit: Emit): void {
  for (const op of spec.operations) {
    if (!op.rateLimit) continue
    if (!['orders', 'cancels', 'api'].includes(op.rateLimit.category)) {
      emit(
        'rate-limit-category-unknown',
        `${op.pointer}/x-rate-limit/category`,
        `${op.method} ${op.path}: unknown rate-limit category "${op.rateLimit.category}"`,
      )
    }
    // Every status, refusals before any wallet is known (413, 415, 500) included: the seed puts
    // the headers on "success and error responses of all rate-limited endpoints".
    for (const [status, response] of Object.entries(op.responses)) {
      const headers = isObject(response.headers) ? response.headers : {}
      const at = `${op.pointer}/responses/${status}`
      for (const h of RATE_HEADERS) {
        if (!(h in headers)) emit('rate-limit-headers-missing', at, `${op.method} ${op.path} ${status} does not declare ${h}`)
      }
      if (status === '429' && !(RATE_LIMIT_HEADERS.retryAfter in headers))
        emit('rate-limit-headers-missing', at, `${op.method} ${op.path} 429 does not declare ${RATE_LIMIT_HEADERS.retryAfter}`)
    }
    if (!op.responses['429'])
      emit('rate-limit-headers-missing', `${op.pointer}/responses`, `${op.method} ${op.path} is rate-limited but declares no 429`)
  }
}

/** A node with its local `$ref` chain followed, and the pointer where it is written. */
function follow(doc: Record<string, unknown>, node: unknown, at: string): { node: unknown; at: string } {
  const seen = new Set<string>()
  while (isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#') && !seen.has(node.$ref)) {
    seen.add(node.$ref)
    at = node.$ref.includes('%') ? decodeURIComponent(node.$ref.slice(1)) : node.$ref.slice(1)
    node = getPointer(doc, at)
  }
  return { node, at }
}

/**
 * Each object schema a JSON request body reaches, reported once where the schema is written
 * (a component used by 26 operations is one finding, at the component), so the pointer is
 * where the fix belongs and resolves in the document.
 */
function lintRequestBodies(spec: Contract, emit: Emit): void {
  const reported = new Set<string>()
  const visit = (schema: unknown, from: string) => {
    const { node: s, at } = follow(spec.doc, schema, from)
    if (!isObject(s) || reported.has(at)) return
    reported.add(at)
    for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
      const list = s[key]
      if (Array.isArray(list)) list.forEach((sub, i) => visit(sub, `${at}/${key}/${i}`))
    }
    if (s.type === 'object' && isObject(s.properties)) {
      if (s.additionalProperties !== false)
        emit('request-additional-properties', at, `request object schema at ${at} must set additionalProperties: false`)
      for (const [k, v] of Object.entries(s.properties)) visit(v, `${at}/properties${toPointer([k])}`)
    }
    if (s.type === 'array') visit(s.items, `${at}/items`)
  }
  for (const op of spec.operations) {
    const body = follow(spec.doc, getPointer(spec.doc, `${op.pointer}/requestBody`), `${op.pointer}/requestBody`)
    const content = isObject(body.node) ? body.node.content : undefined
    if (isObject(content) && isObject(content['application/json'])) {
      visit(content['application/json'].schema, `${body.at}/content/application~1json/schema`)
    }
  }
}

function lintAssumed(node: unknown, path: (string | number)[], emit: Emit): void {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      path.push(i)
      lintAssumed(node[i], path, emit)
      path.pop()
    }
    return
  }
  if (!isObject(node)) return
  let marked = node['x-assumed'] === true
  for (const k in node) if (!marked && k.startsWith('x-assumed-') && k !== 'x-assumed-why' && node[k] === true) marked = true
  const why = node['x-assumed-why']
  if (marked && (typeof why !== 'string' || why.trim() === '')) {
    // The pointer is spelt only for a finding: a 4 MB spec has hundreds of thousands of nodes.
    const pointer = toPointer(path)
    emit('assumed-why-missing', pointer, `assumed element at ${pointer || '/'} has no x-assumed-why`)
  }
  for (const k in node) {
    path.push(k)
    lintAssumed(node[k], path, emit)
    path.pop()
  }
}
