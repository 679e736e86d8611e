/**
 * What `oec diff` reports: findings with a stable rule id, and the registry of those rules with
 * their default severity. Ids are oasdiff's where oasdiff has one, so users recognise them.
 */

export type DiffSeverity = 'breaking' | 'warning' | 'info'
/** A level a `--severity` file may give a rule; `none` silences it. */
export type DiffLevel = DiffSeverity | 'none'

export interface DiffFinding {
  /** Stable rule id (e.g. `error-code-removed`). */
  readonly id: string
  readonly severity: DiffSeverity
  /** JSON pointer of the changed element: in head, or in base when it is gone from head. */
  readonly pointer: string
  /** One sentence saying what changed and where. */
  readonly message: string
  readonly before?: unknown
  readonly after?: unknown
}

export const SEVERITY_RANK: Readonly<Record<DiffSeverity, number>> = { breaking: 3, warning: 2, info: 1 }

export interface RuleInfo {
  readonly severity: DiffSeverity
  readonly description: string
}

const B = 'breaking' as const
const W = 'warning' as const
const I = 'info' as const

/** Property rules shared by request bodies (`request-property-*`) and parameters (`request-parameter-*`). */
function requestSchemaRules(prefix: 'request-property' | 'request-parameter', what: string): Record<string, RuleInfo> {
  return {
    [`${prefix}-type-changed`]: { severity: B, description: `a ${what}'s type or format no longer accepts what it accepted` },
    [`${prefix}-became-not-nullable`]: { severity: B, description: `a ${what} no longer accepts null` },
    [`${prefix}-enum-value-removed`]: { severity: B, description: `an accepted enum value of a ${what} was removed` },
    [`${prefix}-enum-value-added`]: { severity: I, description: `a ${what} accepts a new enum value` },
    [`${prefix}-became-enum`]: { severity: B, description: `a free ${what} is now restricted to an enum` },
    [`${prefix}-pattern-added`]: { severity: B, description: `a ${what} gained a pattern` },
    [`${prefix}-pattern-changed`]: { severity: W, description: `a ${what}'s pattern changed` },
    [`${prefix}-pattern-removed`]: { severity: I, description: `a ${what}'s pattern was removed` },
    [`${prefix}-max-length-decreased`]: { severity: B, description: `a ${what}'s maxLength was added or lowered` },
    [`${prefix}-max-length-increased`]: { severity: I, description: `a ${what}'s maxLength was raised or removed` },
    [`${prefix}-min-length-increased`]: { severity: B, description: `a ${what}'s minLength was raised` },
    [`${prefix}-min-length-decreased`]: { severity: I, description: `a ${what}'s minLength was lowered` },
    [`${prefix}-max-decreased`]: { severity: B, description: `a ${what}'s maximum was added or lowered` },
    [`${prefix}-max-increased`]: { severity: I, description: `a ${what}'s maximum was raised or removed` },
    [`${prefix}-min-increased`]: { severity: B, description: `a ${what}'s minimum was added or raised` },
    [`${prefix}-min-decreased`]: { severity: I, description: `a ${what}'s minimum was lowered or removed` },
    [`${prefix}-max-items-decreased`]: { severity: B, description: `a ${what}'s maxItems was added or lowered` },
    [`${prefix}-max-items-increased`]: { severity: I, description: `a ${what}'s maxItems was raised or removed` },
    [`${prefix}-min-items-increased`]: { severity: B, description: `a ${what}'s minItems was raised` },
    [`${prefix}-min-items-decreased`]: { severity: I, description: `a ${what}'s minItems was lowered` },
    [`${prefix}-one-of-removed`]: { severity: B, description: `a oneOf/anyOf alternative of a ${what} was removed` },
  }
}

export const RULES: Readonly<Record<string, RuleInfo>> = {
  // operations
  'api-removed-without-deprecation': { severity: B, description: 'an operation was removed without being deprecated first' },
  'api-removed-before-sunset': { severity: B, description: 'a deprecated operation was removed before its x-sunset date' },
  'endpoint-removed': { severity: I, description: 'a deprecated operation was removed after its sunset' },
  'endpoint-added': { severity: I, description: 'an operation was added' },
  'endpoint-deprecated': { severity: I, description: 'an operation was deprecated' },
  'api-operation-id-removed': { severity: B, description: 'an operationId was removed or renamed (generated client names use it)' },
  'rate-limit-category-changed': { severity: W, description: "an operation's rate-limit category changed" },
  // request
  'request-body-became-required': { severity: B, description: 'a request body became required' },
  'request-body-media-type-removed': { severity: B, description: 'a request content type was dropped' },
  'new-required-request-property': { severity: B, description: 'a new required request body property' },
  'new-optional-request-property': { severity: I, description: 'a new optional request body property' },
  'request-property-became-required': { severity: B, description: 'an optional request body property became required' },
  'request-property-became-optional': { severity: I, description: 'a required request body property became optional' },
  'request-property-removed': { severity: B, description: 'a request body property was removed (warning when the schema accepts additional properties)' },
  ...requestSchemaRules('request-property', 'request property'),
  'new-required-request-parameter': { severity: B, description: 'a new required parameter' },
  'new-optional-request-parameter': { severity: I, description: 'a new optional parameter' },
  'request-parameter-became-required': { severity: B, description: 'an optional parameter became required' },
  'request-parameter-became-optional': { severity: I, description: 'a required parameter became optional' },
  'request-parameter-removed': { severity: B, description: 'a parameter was removed' },
  ...requestSchemaRules('request-parameter', 'parameter'),
  // response
  'response-success-status-removed': { severity: B, description: 'a 2xx response status was removed' },
  'response-non-success-status-removed': { severity: W, description: 'an error response status was removed' },
  'response-success-status-added': { severity: I, description: 'a 2xx response status was added' },
  'response-non-success-status-added': { severity: I, description: 'an error response status was added' },
  'response-media-type-removed': { severity: B, description: 'a response content type was dropped' },
  'response-required-property-removed': { severity: B, description: 'a guaranteed response property is gone' },
  'response-optional-property-removed': { severity: W, description: 'an optional response property is gone' },
  'response-required-property-added': { severity: I, description: 'a new guaranteed response property' },
  'response-optional-property-added': { severity: I, description: 'a new optional response property' },
  'response-property-became-optional': { severity: B, description: 'a guaranteed response property may now be absent' },
  'response-property-became-required': { severity: I, description: 'an optional response property is now guaranteed' },
  'response-property-became-nullable': { severity: B, description: 'a response property may now be null' },
  'response-property-type-changed': { severity: B, description: "a response property's type or format changed" },
  'response-property-enum-value-added': { severity: W, description: 'a response enum has a new value clients may not handle (exempt with x-extensible-enum)' },
  'response-property-enum-value-removed': { severity: I, description: 'a response enum value is no longer sent' },
  'response-property-one-of-added': { severity: W, description: 'a response property may take a new oneOf/anyOf shape' },
  'required-response-header-removed': { severity: B, description: 'a required response header is gone (e.g. X-RateLimit-*)' },
  'optional-response-header-removed': { severity: W, description: 'an optional response header is gone' },
  'response-header-became-optional': { severity: B, description: 'a required response header may now be absent' },
  'error-code-added-to-operation': { severity: W, description: 'an operation can return a new error code (breaks exhaustive client switches)' },
  'error-code-removed-from-operation': { severity: I, description: 'an operation no longer returns an error code' },
  // catalog
  'error-code-removed': { severity: B, description: 'a catalog code was deleted (a rename shows as removed + added)' },
  'error-code-added': { severity: I, description: 'a catalog code was added (clients tolerate unknown codes)' },
  'error-code-status-changed': { severity: B, description: 'a catalog code maps to a different HTTP status' },
  'error-code-deprecated': { severity: W, description: 'a catalog code was newly deprecated' },
  'error-code-attribute-changed': { severity: W, description: "a catalog code's retryable flag or fixed message changed" },
  'error-code-legacy-error-changed': { severity: B, description: "the legacy `error` value of a catalog code changed" },
  'jsonrpc-error-code-changed': { severity: B, description: 'a JSON-RPC numeric code changed' },
  'jsonrpc-error-code-removed': { severity: B, description: 'a JSON-RPC numeric code was removed' },
  // signing
  'eip712-domain-changed': { severity: B, description: 'a signing domain field (name, version, chainId, verifyingContract, salt) or the domain type changed' },
  'eip712-domain-removed': { severity: B, description: 'a signing domain was removed' },
  'eip712-domain-added': { severity: I, description: 'a signing domain was added' },
  'eip712-type-hash-changed': { severity: B, description: 'the encodeType of a signed message changed (fields added, removed, renamed, reordered or retyped)' },
  'eip712-primary-type-renamed': { severity: B, description: 'the signed struct was renamed' },
  'eip712-message-domain-changed': { severity: B, description: 'a signed message moved to another signing domain' },
  'eip712-message-removed': { severity: B, description: 'a signed message type was removed' },
  'eip712-message-added': { severity: I, description: 'a signed message type was added' },
  'signed-field-mapping-changed': { severity: B, description: 'a typed-data field is carried by a different body property' },
  'signed-body-message-changed': { severity: B, description: 'a request body is signed as another message, variant rule or signature property' },
  // limits
  'rate-limit-tier-lowered': { severity: W, description: 'a tier limit or cap was lowered (-1 = unlimited)' },
  'rate-limit-tier-raised': { severity: I, description: 'a tier limit or cap was raised' },
  'rate-limit-tier-removed': { severity: W, description: 'a rate-limit tier was removed' },
  'rate-limit-tier-added': { severity: I, description: 'a rate-limit tier was added' },
  'rate-limit-window-changed': { severity: W, description: 'the rate-limit window length changed' },
  'rate-limit-default-tier-changed': { severity: W, description: 'new wallets get a different tier' },
  'max-batch-decreased': { severity: W, description: 'the maximum bulk batch size was lowered' },
  'max-batch-increased': { severity: I, description: 'the maximum bulk batch size was raised' },
  // assumptions
  'assumed-became-stated': { severity: I, description: 'an x-assumed element is now stated by the contract' },
  'stated-became-assumed': { severity: I, description: 'a stated element is now marked x-assumed' },
  // versions
  'api-version-not-bumped': { severity: B, description: 'breaking changes without a change of info.version' },
  'api-major-version-not-bumped': { severity: B, description: 'breaking changes without a major bump of info.version' },
  'api-version-decreased': { severity: W, description: 'info.version went down' },
  'eip712-domain-version-not-bumped': { severity: B, description: 'a signed type or domain changed without a bump of the EIP-712 domain version' },
}

export function ruleIds(): string[] {
  return Object.keys(RULES).sort()
}
