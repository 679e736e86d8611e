/**
 * Every rule `oec lint` can report, in one place: its id, level, the contract layer it needs and
 * a one-line doc. `LintRuleId` is derived from this table, so a finding under an id that is not
 * here does not compile, and `oec lint --list-rules` prints the table itself.
 */
import { layerKey, type Contract, type LayerName } from '../contract/load.ts'
import { InputError } from '../errors.ts'
/** A finding's weight: an error fails `oec lint`; a warning and an info line do not. */
export type Severity = 'error' | 'warning' | 'info'

export interface LintRuleInfo {
  readonly level: Severity
  /** The layer the rule reads; a spec without it skips the rule. `null`: every OpenAPI document. */
  readonly needs: LayerName | null
  readonly doc: string
  /**
   * The toolkit's own contract rule (a house convention, not OpenAPI): at its level only when
   * the document carries a toolkit layer, otherwise a warning, so a third-party spec is not
   * failed for a convention it never adopted.
   */
  readonly house?: true
}

export const LINT_RULES = {
  'openapi-valid': {
    level: 'error',
    needs: null,
    doc: 'The document is valid OpenAPI 3.0/3.1 (the OAI schema of its version, each error once where it is written; every $ref resolves).',
  },
  'layer-invalid': {
    level: 'error',
    needs: null,
    doc: 'A toolkit extension that is present can be read; one that cannot is reported and its rules skipped.',
  },
  'request-additional-properties': {
    level: 'error',
    needs: null,
    doc: 'Every object schema of a JSON request body sets additionalProperties: false (a warning on a spec with no toolkit layer).',
    house: true,
  },
  'assumed-why-missing': {
    level: 'error',
    needs: null,
    doc: 'An element marked x-assumed (or x-assumed-<what>) says why in x-assumed-why (a warning on a spec with no toolkit layer).',
    house: true,
  },
  'catalog-entry-fields': {
    level: 'error',
    needs: 'catalog',
    doc: 'A catalog entry has code, surface, http_status, description, retryable, since, deprecated and legacy_error.',
  },
  'catalog-code-format': {
    level: 'error',
    needs: 'catalog',
    doc: 'An HTTP code is a lowercase identifier; a JSON-RPC code is an integer.',
  },
  'catalog-code-unique': { level: 'error', needs: 'catalog', doc: 'No code appears twice on the same surface.' },
  'catalog-code-undeclared': {
    level: 'error',
    needs: 'catalog',
    doc: 'Every code a response or x-global-error-codes names is in the catalog.',
  },
  'catalog-status-mismatch': {
    level: 'error',
    needs: 'catalog',
    doc: 'A response returns a code only with an HTTP status the catalog gives it.',
  },
  'catalog-code-unused': {
    level: 'error',
    needs: 'catalog',
    doc: 'Every catalog code is used by some response, unless marked reserved: true.',
  },
  'eip712-domain-invalid': {
    level: 'error',
    needs: 'typedData',
    doc: 'A signing domain has every domain field, a positive chainId and an address; messages name a known domain.',
  },
  'eip712-type-invalid': { level: 'error', needs: 'typedData', doc: 'A message field has an EIP-712 elementary type and appears once.' },
  'eip712-message-unknown': {
    level: 'error',
    needs: 'typedData',
    doc: 'A signed body (x-eip712-signed) names only messages that x-eip712.messages defines.',
  },
  'eip712-field-unmapped': {
    level: 'error',
    needs: 'typedData',
    doc: 'Every signed field maps to a required body property, and variant conditions match the fields.',
  },
  'eip712-type-mismatch': {
    level: 'error',
    needs: 'typedData',
    doc: 'A body property has the JSON Schema type of the EIP-712 field it carries.',
  },
  'eip712-property-unsigned': {
    level: 'error',
    needs: 'typedData',
    doc: 'Every property of a signed body is signed by some message variant.',
  },
  'rate-limit-category-unknown': {
    level: 'error',
    needs: 'rateLimits',
    doc: 'An operation x-rate-limit names a known category (orders, cancels, api).',
  },
  'rate-limit-headers-missing': {
    level: 'error',
    needs: 'rateLimits',
    doc: 'A rate-limited operation declares a 429, and the X-RateLimit-* headers on every response (413, 415 and 500 included; on 429 also Retry-After).',
  },
  'server-needs': {
    level: 'info',
    needs: 'catalog',
    doc: 'The error codes and headers the reference server emits are in the spec (oec serve and the embedded oec check server refuse a spec without them).',
  },
  'optional-until-passed': {
    level: 'info',
    needs: null,
    doc: 'A property optional until an x-optional-until date that has passed may now become required: say whether it has.',
  },
} as const satisfies Record<string, LintRuleInfo>

export type LintRuleId = keyof typeof LINT_RULES

export const LINT_RULE_IDS = Object.keys(LINT_RULES) as LintRuleId[]

/** A rule's level as `--rule ID=LEVEL` or a config's `rules` object sets it. */
export type RuleSetting = 'off' | 'warn' | 'error'
export const RULE_SETTINGS: readonly RuleSetting[] = ['off', 'warn', 'error']

/**
 * The level a rule runs at: the user's setting first, then the registry's, lowered to a warning
 * for a house rule on a document without any toolkit layer. `undefined`: the rule is off.
 */
export function effectiveLevel(
  id: LintRuleId,
  settings: Readonly<Partial<Record<LintRuleId, RuleSetting>>>,
  hasToolkitLayer: boolean,
): Severity | undefined {
  const set = settings[id]
  if (set === 'off') return undefined
  if (set !== undefined) return set === 'warn' ? 'warning' : 'error'
  const rule: LintRuleInfo = LINT_RULES[id]
  return rule.house && !hasToolkitLayer ? 'warning' : rule.level
}

/**
 * Reads `ID=LEVEL` pairs (the CLI's repeated `--rule`) into settings; a config file's `rules`
 * object goes through `checkRuleSettings`. Throws with one line naming what is wrong.
 */
export function parseRuleFlags(flags: readonly string[]): Partial<Record<LintRuleId, RuleSetting>> {
  const settings: Record<string, string> = {}
  for (const flag of flags) {
    const eq = flag.indexOf('=')
    if (eq <= 0) throw new InputError(`--rule ${flag}: expected ID=off|warn|error, e.g. --rule request-additional-properties=off`)
    settings[flag.slice(0, eq)] = flag.slice(eq + 1)
  }
  return checkRuleSettings(settings)
}

/** Checks a `{ id: level }` object: every id registered, every level off, warn or error. */
export function checkRuleSettings(settings: Readonly<Record<string, unknown>>): Partial<Record<LintRuleId, RuleSetting>> {
  for (const [id, level] of Object.entries(settings)) {
    if (!(id in LINT_RULES)) throw new InputError(`unknown lint rule "${id}" (oec lint --list-rules lists them)`)
    if (!RULE_SETTINGS.includes(level as RuleSetting))
      throw new InputError(`rule ${id}: level "${String(level)}" is not off, warn or error`)
  }
  return settings as Partial<Record<LintRuleId, RuleSetting>>
}

/** What each layer holds, for the line that says a layer's rules were skipped. */
const LAYER_TOPIC: Record<LayerName, string> = {
  catalog: 'error-code catalog',
  typedData: 'signing domains and message types',
  rateLimits: 'rate-limit tiers',
  websocket: 'WebSocket channels',
}

export interface AbsentLayer {
  readonly layer: LayerName
  /** The document key, e.g. `x-eip712`. */
  readonly key: string
  readonly topic: string
  /** The rules that were not run for want of this layer. */
  readonly skipped: readonly LintRuleId[]
}

export function absentLayers(contract: Contract, missing: readonly LayerName[]): AbsentLayer[] {
  return missing.map((layer) => ({
    layer,
    key: layerKey(layer, contract.service),
    topic: LAYER_TOPIC[layer],
    skipped: LINT_RULE_IDS.filter((id) => LINT_RULES[id].needs === layer),
  }))
}

/** The table `--list-rules` prints: one line a rule, id and level aligned. */
export function formatRuleList(service?: string): string {
  const width = Math.max(...LINT_RULE_IDS.map((id) => id.length))
  return (
    LINT_RULE_IDS.map((id) => {
      const r = LINT_RULES[id]
      const needs = r.needs === null ? 'any spec' : layerKey(r.needs, service)
      return `${id.padEnd(width)}  ${r.level.padEnd(7)}  ${needs.padEnd(21)}  ${r.doc}`
    }).join('\n') + '\n'
  )
}

export function ruleListJson(service?: string): { id: LintRuleId; level: Severity; needs: string | null; doc: string }[] {
  return LINT_RULE_IDS.map((id) => {
    const r: LintRuleInfo = LINT_RULES[id]
    return { id, level: r.level, needs: r.needs === null ? null : layerKey(r.needs, service), doc: r.doc }
  })
}
