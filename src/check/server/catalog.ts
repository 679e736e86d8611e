/**
 * The check catalog of `oec check server`: id, title, rule ids, level and whether a check is
 * slow, in run order. `oec coverage` reads it to build the rule × check matrix; `--list` prints
 * it as text for people or as JSON for the generated check docs.
 */
import { contractFor, type Contract } from '../../contract/index.ts'
import { allChecks } from './registry.ts'
import type { CheckInfo } from './types.ts'

export type { CheckInfo }

/** A catalog entry; `needs` says what a live target must offer beyond the defaults for the check to run (see Check.needs). */
export type CatalogEntry = CheckInfo & { readonly needs?: string }

export function serverCheckCatalog(spec?: Contract | string): CatalogEntry[] {
  const contract = contractFor(spec, ['catalog', 'typedData', 'rateLimits', 'websocket'], 'the server checks')
  return allChecks({ spec: contract }).map((c) => ({
    id: c.id,
    title: c.title,
    rules: [...c.rules],
    level: c.level,
    ...(c.slow ? { slow: true } : {}),
    ...(c.needs ? { needs: c.needs(contract) } : {}),
  }))
}

export const CATALOG_FORMATS = ['text', 'json'] as const
export type CatalogFormat = (typeof CATALOG_FORMATS)[number]

/** The catalog as `oec check server --list` prints it. */
export function formatServerCatalog(checks: readonly CheckInfo[], format: CatalogFormat): string {
  if (format === 'json') {
    return `${JSON.stringify({ checks: checks.map((c) => ({ id: c.id, title: c.title, level: c.level, slow: c.slow === true, rules: c.rules })) }, null, 2)}\n`
  }
  return checks
    .map((c) => `${c.id.padEnd(36)} ${c.level.padEnd(8)}${c.slow ? ' slow' : '     '} ${c.rules.join(',')}  ${c.title}\n`)
    .join('')
}
