/**
 * The one registry of `oec diff` rules: every id with its default level, the direction it judges
 * and a one-line doc. Ids and default levels are oasdiff's wherever oasdiff has the rule (so its
 * users recognise them and its `--severity` files keep working); a `why` says where ours differ
 * on purpose. `DiffRuleId` is the union of the ids, so a misspelt id is a compile error.
 *
 * Schema rules come in families: one keyword change (`max-length-decreased`) named at the body
 * root (`request-body-…`), a property below it (`request-property-…`), a parameter
 * (`request-parameter-…`, `request-parameter-property-…` below its root) or a response header.
 */
import type { DiffSeverity } from './model.ts'

export type RuleDirection = 'request' | 'response' | 'none'

export interface RuleInfo {
  readonly severity: DiffSeverity
  readonly direction: RuleDirection
  readonly description: string
  /** Why the level differs from oasdiff's default, when it does. */
  readonly why?: string
  /** Set when the id looks like oasdiff's but oasdiff has no such rule. */
  readonly ours?: string
  /** The schema keyword change a family rule names at one site. */
  readonly family?: SchemaSuffix
}

const B = 'breaking' as const
const W = 'warning' as const
const I = 'info' as const
type Lv = DiffSeverity | null

interface SchemaRow {
  /** Level in a request body (root and properties); null: no request rule. */
  readonly req: Lv
  /** Level in a response body; null: no response rule. */
  readonly res: Lv
  readonly doc: string
  /** Level for a parameter's schema root when it differs from `req` (null: none). */
  readonly param?: Lv
  /** Level for a property inside a parameter's schema, where oasdiff names one. */
  readonly paramProp?: Lv
  /** Level for a property inside a header parameter's schema, where oasdiff names one. */
  readonly headerProp?: Lv
  /** Level for a response header's schema, where oasdiff names one. */
  readonly header?: Lv
  /** oasdiff names this change only at properties: the body root uses the property id. */
  readonly propertyOnly?: boolean
  /** oasdiff names this change at a response body root `response-mediatype-…`. */
  readonly mediatype?: boolean
  /** Where oasdiff has no rule for the change: the ids are ours. */
  readonly ours?: string
  /** oasdiff has this rule for parameters (only): the parameter id is its own. */
  readonly oasdiffAtParameter?: boolean
}

const row = (req: Lv, res: Lv, doc: string, more: Omit<SchemaRow, 'req' | 'res' | 'doc'> = {}): SchemaRow => ({ req, res, doc, ...more })

/** Keyword changes inside a schema, by suffix: [request level, response level, doc]. */
const SCHEMA_ROWS = {
  'type-changed': row(B, B, 'the type or format changed incompatibly', { paramProp: W, header: B }),
  'type-generalized': row(I, B, 'the type or format now admits more values', { paramProp: I, header: B }),
  'type-specialized': row(null, I, 'the type or format now admits fewer values', { paramProp: B, header: I }),
  'list-of-types-narrowed': row(B, I, 'a type was dropped from a list of types', { paramProp: B }),
  'list-of-types-widened': row(I, B, 'a type was added to a list of types', { paramProp: I }),
  'became-nullable': row(I, B, 'null is now allowed', { paramProp: I, header: B }),
  'became-not-nullable': row(B, I, 'null is no longer allowed', { paramProp: B, header: I }),
  'became-enum': row(B, null, 'a free value is now restricted to an enum', { headerProp: B }),
  'enum-value-added': row(I, W, 'an enum value was added (a response exempts it with x-extensible-enum)', {
    paramProp: I,
    propertyOnly: true,
  }),
  'enum-value-removed': row(B, I, 'an enum value was removed', { paramProp: B, mediatype: true }),
  'x-extensible-enum-value-removed': row(B, null, 'a value listed in x-extensible-enum was removed', { propertyOnly: true }),
  'const-added': row(B, I, 'a const was added'),
  'const-changed': row(B, B, 'the const value changed'),
  'const-removed': row(I, B, 'the const was removed'),
  'pattern-added': row(B, I, 'a pattern was added', { propertyOnly: true }),
  'pattern-changed': row(W, I, 'the pattern changed and may reject what it accepted', { propertyOnly: true }),
  'pattern-generalized': row(I, null, 'the pattern was widened (e.g. to `.*`): it accepts everything it accepted', { propertyOnly: true }),
  'pattern-removed': row(I, I, 'the pattern was removed', { propertyOnly: true }),
  'max-length-decreased': row(B, null, 'maxLength was lowered'),
  'max-length-increased': row(I, B, 'maxLength was raised'),
  'max-length-set': row(W, null, 'maxLength was set where there was none'),
  'max-length-unset': row(null, B, 'maxLength was removed'),
  'min-length-increased': row(B, null, 'minLength was raised'),
  'min-length-decreased': row(I, B, 'minLength was lowered'),
  'max-decreased': row(B, null, 'maximum was lowered'),
  'max-increased': row(I, B, 'maximum was raised'),
  'max-set': row(W, null, 'maximum was set where there was none'),
  'min-increased': row(B, null, 'minimum was raised'),
  'min-decreased': row(I, B, 'minimum was lowered'),
  'min-set': row(W, null, 'minimum was set where there was none'),
  'exclusive-max-decreased': row(B, null, 'exclusiveMaximum was lowered'),
  'exclusive-max-increased': row(I, B, 'exclusiveMaximum was raised'),
  'exclusive-max-set': row(W, null, 'exclusiveMaximum was set where there was none'),
  'exclusive-min-increased': row(B, null, 'exclusiveMinimum was raised'),
  'exclusive-min-decreased': row(I, B, 'exclusiveMinimum was lowered'),
  'exclusive-min-set': row(W, null, 'exclusiveMinimum was set where there was none'),
  'max-items-decreased': row(B, null, 'maxItems was lowered', { ours: 'oasdiff names it for parameters only', oasdiffAtParameter: true }),
  'max-items-increased': row(I, null, 'maxItems was raised', { ours: 'oasdiff names it for parameters only', oasdiffAtParameter: true }),
  'min-items-increased': row(B, null, 'minItems was raised'),
  'min-items-decreased': row(I, B, 'minItems was lowered'),
  'min-items-set': row(W, null, 'minItems was set where there was none'),
  'min-items-unset': row(null, B, 'minItems was removed'),
  'max-contains-decreased': row(B, I, 'maxContains was lowered'),
  'max-contains-increased': row(I, B, 'maxContains was raised'),
  'min-contains-increased': row(B, I, 'minContains was raised'),
  'min-contains-decreased': row(I, B, 'minContains was lowered'),
  'if-added': row(B, I, 'an `if` condition was added'),
  'if-removed': row(I, B, 'the `if` condition was removed'),
  'then-added': row(B, I, 'a `then` branch was added'),
  'then-removed': row(I, B, 'the `then` branch was removed'),
  'else-added': row(B, I, 'an `else` branch was added'),
  'else-removed': row(I, B, 'the `else` branch was removed'),
  'contains-added': row(B, I, 'a `contains` constraint was added'),
  'contains-removed': row(I, B, 'the `contains` constraint was removed'),
  'prefix-items-added': row(I, B, 'prefixItems were added'),
  'prefix-items-removed': row(B, I, 'prefixItems were removed'),
  'property-names-added': row(B, I, 'a propertyNames constraint was added'),
  'property-names-removed': row(I, B, 'the propertyNames constraint was removed'),
  'dependent-schema-added': row(B, I, 'a dependentSchemas entry was added'),
  'dependent-schema-removed': row(I, B, 'a dependentSchemas entry was removed'),
  'dependent-required-added': row(B, I, 'a dependentRequired entry was added'),
  'dependent-required-removed': row(I, B, 'a dependentRequired entry was removed'),
  'dependent-required-changed': row(B, B, 'the properties a dependentRequired entry demands changed'),
  'unevaluated-items-added': row(B, I, 'an unevaluatedItems constraint was added'),
  'unevaluated-items-removed': row(I, B, 'the unevaluatedItems constraint was removed'),
  'unevaluated-properties-added': row(B, I, 'an unevaluatedProperties constraint was added'),
  'unevaluated-properties-removed': row(I, B, 'the unevaluatedProperties constraint was removed'),
  'pattern-property-added': row(B, I, 'a patternProperties entry was added'),
  'pattern-property-removed': row(I, B, 'a patternProperties entry was removed'),
  'content-schema-added': row(B, I, 'a contentSchema was added'),
  'content-schema-removed': row(I, B, 'the contentSchema was removed'),
  'content-encoding-changed': row(B, B, 'contentEncoding changed'),
  'content-media-type-changed': row(B, B, 'contentMediaType changed'),
  'not-added': row(B, I, 'a `not` constraint was added', { ours: 'oasdiff has no rule' }),
  'not-removed': row(I, B, 'the `not` constraint was removed', { ours: 'oasdiff has no rule' }),
  'one-of-added': row(I, B, 'a oneOf alternative was added'),
  'one-of-removed': row(B, I, 'a oneOf alternative was removed'),
  'any-of-added': row(I, I, 'an anyOf alternative was added'),
  'any-of-removed': row(B, I, 'an anyOf alternative was removed'),
  'all-of-added': row(B, I, 'an allOf member was added'),
  'all-of-removed': row(W, I, 'an allOf member was removed'),
  'all-of-added-annotation-only': row(I, I, 'an allOf member that only annotates (title, description, example) was added'),
  'all-of-removed-annotation-only': row(I, I, 'an allOf member that only annotates was removed'),
  'wrapped-in-one-of': row(B, B, 'the schema was wrapped in a oneOf'),
  'any-of-became-one-of': row(W, I, 'anyOf became oneOf over the same members: a value must now match exactly one', {
    ours: 'oasdiff has no rule (it reports every member lost and gained)',
  }),
  'one-of-became-any-of': row(I, W, 'oneOf became anyOf over the same members: a value may now match several', {
    ours: 'oasdiff has no rule (it reports every member lost and gained)',
  }),
  'discriminator-added': row(I, I, 'a discriminator was added'),
  'discriminator-removed': row(I, I, 'the discriminator was removed'),
  'discriminator-property-name-changed': row(I, I, 'the discriminator property changed'),
  'discriminator-mapping-added': row(I, I, 'a discriminator mapping was added'),
  'discriminator-mapping-deleted': row(I, I, 'a discriminator mapping was deleted'),
  'discriminator-mapping-changed': row(I, I, 'a discriminator mapping points elsewhere'),
  'default-value-added': row(I, I, 'a default value was added', { param: B }),
  'default-value-changed': row(I, I, 'the default value changed', { param: B }),
  'default-value-removed': row(I, I, 'the default value was removed', { param: B }),
  deprecated: row(I, I, 'the element was deprecated', { propertyOnly: true }),
  reactivated: row(I, I, 'the element is no longer deprecated', { propertyOnly: true }),
  'deprecated-with-sunset': row(I, I, 'the element was deprecated with an x-sunset date', { propertyOnly: true }),
  'deprecated-sunset-invalid': row(B, B, 'the element was deprecated with an x-sunset that is not a date', { propertyOnly: true }),
} as const satisfies Record<string, SchemaRow>

export type SchemaSuffix = keyof typeof SCHEMA_ROWS
export const isSchemaSuffix = (s: string): s is SchemaSuffix => Object.hasOwn(SCHEMA_ROWS, s)
type SchemaRuleId =
  | `${'request' | 'response'}-${'body' | 'property'}-${SchemaSuffix}`
  | `request-parameter-${SchemaSuffix}`
  | `request-parameter-property-${SchemaSuffix}`
  | `request-header-property-${SchemaSuffix}`
  | `response-header-${SchemaSuffix}`
  | `response-mediatype-${SchemaSuffix}`

const rule = (severity: DiffSeverity, direction: RuleDirection, description: string, why?: string): RuleInfo => ({
  severity,
  direction,
  description,
  ...(why ? { why } : {}),
})
const rq = (s: DiffSeverity, d: string, why?: string) => rule(s, 'request', d, why)
const rs = (s: DiffSeverity, d: string, why?: string) => rule(s, 'response', d, why)
const no = (s: DiffSeverity, d: string, why?: string) => rule(s, 'none', d, why)

/** Rules that are not schema-keyword families: paths, operations, bodies, and the toolkit's layers. */
const FIXED = {
  // paths and operations
  'api-path-removed-without-deprecation': no(B, 'a path was removed without being deprecated first'),
  'api-path-removed-with-deprecation': no(I, 'a deprecated path was removed after its sunset'),
  'api-path-removed-before-sunset': no(B, 'a deprecated path was removed before its x-sunset date'),
  'api-removed-without-deprecation': no(B, 'an operation was removed without being deprecated first'),
  'api-removed-with-deprecation': no(I, 'a deprecated operation was removed after its sunset'),
  'api-removed-before-sunset': no(B, 'a deprecated operation was removed before its x-sunset date'),
  'endpoint-added': no(I, 'an operation was added'),
  'endpoint-deprecated': no(I, 'an operation was deprecated'),
  'api-invalid-stability-level': no(B, 'an operation has an x-stability-level other than draft, alpha, beta or stable'),
  'api-stability-decreased': no(B, "an operation's x-stability-level went down"),
  'api-stability-increased': no(I, "an operation's x-stability-level went up"),
  'endpoint-reactivated': no(I, 'a deprecated operation is no longer deprecated'),
  'endpoint-deprecated-with-sunset': no(I, 'an operation was deprecated with an x-sunset date'),
  'api-deprecated-sunset-parse': no(B, 'an operation was deprecated with an x-sunset that is not a date'),
  'api-path-sunset-parse': no(B, "a deprecated operation's x-sunset changed and one of the two is not a date"),
  'sunset-deleted': no(B, 'a still deprecated operation lost its x-sunset'),
  'api-operation-id-removed': no(
    B,
    'an operationId was removed or renamed',
    'oasdiff: info. Generated clients name their methods after it, so their callers stop compiling',
  ),
  'api-operation-id-added': no(I, 'an operationId was added'),
  'api-security-added': no(I, 'a security requirement was added to an operation'),
  'api-security-removed': no(I, 'a security requirement was removed from an operation'),
  'api-security-scope-added': no(I, "a scope was added to an operation's security requirement"),
  'api-security-scope-removed': no(I, "a scope was removed from an operation's security requirement"),
  'api-global-security-added': no(I, 'a document-wide security requirement was added'),
  'api-global-security-removed': no(I, 'a document-wide security requirement was removed'),
  'api-global-security-scope-added': no(I, 'a scope was added to a document-wide security requirement'),
  'api-global-security-scope-removed': no(I, 'a scope was removed from a document-wide security requirement'),
  'api-security-component-added': no(I, 'a security scheme was added to components'),
  'api-security-component-removed': no(I, 'a security scheme was removed from components'),
  'api-security-component-type-changed': no(I, 'a security scheme changed type'),
  'webhook-added': no(I, 'a webhook was added'),
  'webhook-removed': no(B, 'a webhook was removed'),
  'rate-limit-category-changed': no(W, "an operation's rate-limit category changed"),
  // request
  'request-body-added-required': rq(B, 'a required request body was added'),
  'request-body-added-optional': rq(I, 'an optional request body was added'),
  'request-body-removed': rq(B, 'the request body was removed'),
  'request-body-became-required': rq(B, 'a request body became required'),
  'request-body-became-optional': rq(I, 'a request body became optional'),
  'request-body-media-type-added': rq(I, 'a request content type was added'),
  'request-body-media-type-removed': rq(B, 'a request content type was dropped'),
  'request-body-media-type-schema-added': rq(B, 'a request content type got a schema'),
  'request-body-media-type-schema-removed': rq(I, "a request content type's schema was removed"),
  'new-required-request-property': rq(B, 'a new required request body property'),
  'new-required-request-property-with-default': rq(B, 'a new required request body property that has a default'),
  'new-optional-request-property': rq(I, 'a new optional request body property'),
  'request-property-became-required': rq(B, 'an optional request body property became required'),
  'request-property-became-required-with-default': rq(B, 'an optional request body property with a default became required'),
  'request-property-became-optional': rq(I, 'a required request body property became optional'),
  'request-property-removed': rq(W, 'a request body property was removed (breaking when the schema rejects unknown properties)'),
  'new-required-request-parameter': rq(B, 'a new required parameter'),
  'new-optional-request-parameter': rq(I, 'a new optional parameter'),
  'new-request-path-parameter': rq(B, 'a new path parameter'),
  'new-required-request-default-parameter-to-existing-path': rq(B, 'a new required parameter on a path item (every operation of the path)'),
  'new-optional-request-default-parameter-to-existing-path': rq(I, 'a new optional parameter on a path item (every operation of the path)'),
  'request-parameter-became-required': rq(B, 'an optional parameter became required'),
  'request-parameter-became-optional': rq(I, 'a required parameter became optional'),
  'request-parameter-removed': rq(W, 'a parameter was removed'),
  'request-parameter-removed-with-deprecation': rq(I, 'a deprecated parameter was removed after its sunset'),
  'request-parameter-removed-before-sunset': rq(B, 'a deprecated parameter was removed before its x-sunset date'),
  'request-parameter-deprecated': rq(I, 'a parameter was deprecated'),
  'request-parameter-reactivated': rq(I, 'a deprecated parameter is no longer deprecated'),
  'request-parameter-sunset-parse': rq(B, "a deprecated parameter's x-sunset is not a date"),
  'request-parameter-sunset-deleted': rq(B, 'a still deprecated parameter lost its x-sunset'),
  // response
  'response-success-status-removed': rs(B, 'a 2xx response status was removed'),
  'response-non-success-status-removed': rs(I, 'an error response status was removed'),
  'response-success-status-added': rs(I, 'a 2xx response status was added'),
  'response-non-success-status-added': rs(I, 'an error response status was added'),
  'response-media-type-added': rs(I, 'a response content type was added'),
  'response-media-type-removed': rs(B, 'a response content type was dropped'),
  'response-body-media-type-schema-added': rs(I, 'a response content type got a schema'),
  'response-body-media-type-schema-removed': rs(W, "a response content type's schema was removed"),
  'response-required-property-removed': rs(B, 'a guaranteed response property is gone'),
  'response-optional-property-removed': rs(W, 'an optional response property is gone'),
  'response-required-property-added': rs(I, 'a new guaranteed response property'),
  'response-optional-property-added': rs(I, 'a new optional response property'),
  'response-property-became-optional': rs(B, 'a guaranteed response property may now be absent'),
  'response-property-became-required': rs(I, 'an optional response property is now guaranteed'),
  'response-required-property-became-not-write-only': rs(W, 'a required writeOnly property is now sent in responses'),
  'response-header-added': rs(I, 'a response header was added'),
  'required-response-header-removed': rs(B, 'a required response header is gone (e.g. X-RateLimit-*)'),
  'optional-response-header-removed': rs(W, 'an optional response header is gone'),
  'response-header-became-optional': rs(B, 'a required response header may now be absent'),
  'error-code-added-to-operation': rs(W, 'an operation can return a new error code (breaks exhaustive client switches)'),
  'error-code-removed-from-operation': rs(I, 'an operation no longer returns an error code'),
  // toolkit layers
  'layer-added': no(I, 'a toolkit layer (x-<service>-error-codes, x-eip712, x-rate-limits, x-websocket) was added'),
  'layer-removed': no(B, 'a toolkit layer was removed: every rule it carried is gone at once'),
  'error-code-removed': no(B, 'a catalog code was deleted (a rename shows as removed + added)'),
  'error-code-added': no(I, 'a catalog code was added (clients tolerate unknown codes)'),
  'error-code-status-changed': no(B, 'a catalog code maps to a different HTTP status'),
  'error-code-deprecated': no(W, 'a catalog code was newly deprecated'),
  'error-code-attribute-changed': no(W, "a catalog code's retryable flag or fixed message changed"),
  'error-code-legacy-error-changed': no(B, 'the legacy `error` value of a catalog code changed'),
  'jsonrpc-error-code-changed': no(B, 'a JSON-RPC numeric code changed'),
  'jsonrpc-error-code-removed': no(B, 'a JSON-RPC numeric code was removed'),
  'eip712-domain-changed': no(B, 'a signing domain field (name, version, chainId, verifyingContract, salt) or the domain type changed'),
  'eip712-domain-removed': no(B, 'a signing domain was removed'),
  'eip712-domain-added': no(I, 'a signing domain was added'),
  'eip712-type-hash-changed': no(B, 'the encodeType of a signed message changed (fields added, removed, renamed, reordered or retyped)'),
  'eip712-primary-type-renamed': no(B, 'the signed struct was renamed'),
  'eip712-message-domain-changed': no(B, 'a signed message moved to another signing domain'),
  'eip712-message-removed': no(B, 'a signed message type was removed'),
  'eip712-message-added': no(I, 'a signed message type was added'),
  'signed-field-mapping-changed': rq(B, 'a typed-data field is carried by a different body property'),
  'signed-body-message-changed': rq(B, 'a request body is signed as another message, variant rule or signature property'),
  'rate-limit-tier-lowered': no(W, 'a tier limit or cap was lowered (-1 = unlimited)'),
  'rate-limit-tier-raised': no(I, 'a tier limit or cap was raised'),
  'rate-limit-tier-removed': no(W, 'a rate-limit tier was removed'),
  'rate-limit-tier-added': no(I, 'a rate-limit tier was added'),
  'rate-limit-window-changed': no(W, 'the rate-limit window length changed'),
  'rate-limit-default-tier-changed': no(W, 'new wallets get a different tier'),
  'max-batch-decreased': no(W, 'the maximum bulk batch size was lowered'),
  'max-batch-increased': no(I, 'the maximum bulk batch size was raised'),
  'websocket-path-changed': no(B, 'the x-websocket endpoint moved'),
  'websocket-channel-removed': no(B, 'an x-websocket channel was removed'),
  'websocket-channel-added': no(I, 'an x-websocket channel was added'),
  'websocket-message-removed': no(B, 'a message kind of an x-websocket channel was removed'),
  'websocket-message-added': no(I, 'a message kind of an x-websocket channel was added'),
  'assumed-became-stated': no(I, 'an x-assumed element is now stated by the contract'),
  'stated-became-assumed': no(I, 'a stated element is now marked x-assumed'),
  // versions
  'api-version-not-bumped': no(B, 'breaking changes without a change of info.version', 'oasdiff: info; the toolkit gates releases on it'),
  'api-major-version-not-bumped': no(
    B,
    'breaking changes without a major bump of info.version',
    'oasdiff: info; the toolkit gates releases on it',
  ),
  'api-version-decreased': no(W, 'info.version went down', 'oasdiff: info'),
  'eip712-domain-version-not-bumped': no(B, 'a signed type or domain changed without a bump of the EIP-712 domain version'),
} as const satisfies Record<string, RuleInfo>

export type DiffRuleId = keyof typeof FIXED | SchemaRuleId

function schemaRules(): Record<string, RuleInfo> {
  const out: Record<string, RuleInfo> = {}
  for (const [suffix, r] of Object.entries(SCHEMA_ROWS) as [SchemaSuffix, SchemaRow][]) {
    const add = (id: string, info: RuleInfo) => {
      const ours = r.ours && !(r.oasdiffAtParameter && id.startsWith('request-parameter-')) ? { ours: r.ours } : {}
      out[id] = { ...info, ...ours, family: suffix }
    }
    if (r.req) {
      if (!r.propertyOnly) add(`request-body-${suffix}`, rq(r.req, `request body: ${r.doc}`))
      add(`request-property-${suffix}`, rq(r.req, `request property: ${r.doc}`))
    }
    const param = r.param === undefined ? r.req : r.param
    if (param) add(`request-parameter-${suffix}`, rq(param, `parameter: ${r.doc}`))
    if (r.paramProp) add(`request-parameter-property-${suffix}`, rq(r.paramProp, `property of a parameter: ${r.doc}`))
    if (r.headerProp) add(`request-header-property-${suffix}`, rq(r.headerProp, `property of a header parameter: ${r.doc}`))
    if (r.res) {
      if (r.mediatype) add(`response-mediatype-${suffix}`, rs(r.res, `response body: ${r.doc}`))
      else if (!r.propertyOnly) add(`response-body-${suffix}`, rs(r.res, `response body: ${r.doc}`))
      add(`response-property-${suffix}`, rs(r.res, `response property: ${r.doc}`))
    }
    if (r.header) add(`response-header-${suffix}`, rs(r.header, `response header: ${r.doc}`))
  }
  return out
}

export const RULES: Readonly<Record<string, RuleInfo>> = { ...FIXED, ...schemaRules() }

export function isRuleId(id: string): id is DiffRuleId {
  return Object.hasOwn(RULES, id)
}

export function ruleIds(): DiffRuleId[] {
  return (Object.keys(RULES) as DiffRuleId[]).sort()
}

/** `oec diff --list-rules`: one line per rule, tab-separated, sorted by id. */
export function formatRuleList(): string {
  return (
    ruleIds()
      .map((id) => {
        const r = RULES[id]!
        const notes = [r.ours && `ours: ${r.ours}`, r.why && `level: ${r.why}`].filter(Boolean)
        return `${id}\t${r.severity}\t${r.direction}\t${r.description}${notes.length ? ` (${notes.join('; ')})` : ''}`
      })
      .join('\n') + '\n'
  )
}
