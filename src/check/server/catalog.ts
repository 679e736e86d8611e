/**
 * The check catalog of `oec check server`: id, title, rule ids, level and whether a check is
 * slow. `oec coverage` reads it to build the rule × check matrix.
 */
import { contractFor, type Contract } from '../../contract/index.ts'
import { allChecks } from './checks/index.ts'
import type { CheckInfo } from './types.ts'

export type { CheckInfo }

export function serverCheckCatalog(spec?: Contract | string): CheckInfo[] {
  return allChecks(contractFor(spec, ['catalog', 'typedData', 'rateLimits', 'websocket'], 'the server checks')).map((c) => ({ id: c.id, title: c.title, rules: [...c.rules], level: c.level, ...(c.slow ? { slow: true } : {}) }))
}
