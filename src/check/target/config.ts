/**
 * The runner's config file (`--config FILE`), JSON:
 *   {"wallets": [{"privateKey": "0x..", "tier": "tier2"}], "symbols": ["BTC-..."], "missingSymbol": "...",
 *    "domainName": "Service", "chainId": 999, "perpChainId": 1337, "isMainnet": true}
 * Every key is checked so a typo is one clear line (exit 2), never a surprise mid-run.
 */
import { readFileSync } from 'node:fs'
import { InputError } from '../../errors.ts'

export interface RunnerConfig {
  wallets?: { privateKey: `0x${string}`; tier: string }[]
  symbols?: string[]
  missingSymbol?: string
  domainName?: string
  chainId?: number
  perpChainId?: number
  isMainnet?: boolean
}

const KEYS = ['wallets', 'symbols', 'missingSymbol', 'domainName', 'chainId', 'perpChainId', 'isMainnet']

export function parseRunnerConfig(text: string, file: string, tiers: readonly string[]): RunnerConfig {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (err) {
    throw new InputError(`${file}: not JSON (${err instanceof Error ? err.message : String(err)})`)
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new InputError(`${file}: the top level must be a JSON object`)
  const o = doc as Record<string, unknown>
  for (const k of Object.keys(o)) {
    if (k === 'instruments' || k === 'symbol') throw new InputError(`${file}: "${k}" is an old name: the instrument list is "symbols"`)
    if (!KEYS.includes(k)) throw new InputError(`${file}: unknown key "${k}" (known: ${KEYS.join(', ')})`)
  }
  const out: RunnerConfig = {}
  if (o.wallets !== undefined) {
    if (!Array.isArray(o.wallets)) throw new InputError(`${file}: "wallets" must be a list of {"privateKey", "tier"}`)
    out.wallets = o.wallets.map((w, i) => {
      const r = (w ?? {}) as Record<string, unknown>
      if (typeof r.privateKey !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(r.privateKey))
        throw new InputError(`${file}: wallets[${i}].privateKey must be 0x + 64 hex digits`)
      if (typeof r.tier !== 'string' || !tiers.includes(r.tier))
        throw new InputError(`${file}: wallets[${i}].tier must be one of ${tiers.join(', ')}`)
      return { privateKey: r.privateKey as `0x${string}`, tier: r.tier }
    })
  }
  if (o.symbols !== undefined) {
    if (!Array.isArray(o.symbols) || o.symbols.some((s) => typeof s !== 'string' || s === ''))
      throw new InputError(`${file}: "symbols" must be a list of symbol strings`)
    out.symbols = o.symbols as string[]
  }
  for (const k of ['missingSymbol', 'domainName'] as const) {
    if (o[k] !== undefined) {
      if (typeof o[k] !== 'string' || o[k] === '') throw new InputError(`${file}: "${k}" must be a non-empty string`)
      out[k] = o[k] as string
    }
  }
  for (const k of ['chainId', 'perpChainId'] as const) {
    if (o[k] !== undefined) {
      if (typeof o[k] !== 'number' || !Number.isSafeInteger(o[k]) || (o[k] as number) < 0)
        throw new InputError(`${file}: "${k}" must be a whole number`)
      out[k] = o[k] as number
    }
  }
  if (o.isMainnet !== undefined) {
    if (typeof o.isMainnet !== 'boolean') throw new InputError(`${file}: "isMainnet" must be true or false`)
    out.isMainnet = o.isMainnet
  }
  return out
}

export function loadRunnerConfig(file: string, tiers: readonly string[]): RunnerConfig {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw new InputError(`cannot read the config file ${file}`)
  }
  return parseRunnerConfig(text, file, tiers)
}
