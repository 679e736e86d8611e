/**
 * What a live target says about its own world, read before any case: the instruments it lists,
 * in its order (the position is the perp asset index, as the venue's `POST /info {type: meta}`
 * gives it). Checks and the explorer take the target's answer, never the order of `--symbol`.
 */
import type { FullContract } from '../../contract/index.ts'
import type { HttpClient } from './http.ts'
import { route } from './routes.ts'

/** The instruments the target lists, in its order; undefined when it has no readable meta. */
export async function listedInstruments(spec: FullContract, http: Pick<HttpClient, 'send'>): Promise<string[] | undefined> {
  if (!spec.operations.some((o) => o.operationId === 'perpInfo')) return undefined
  const { method, path } = route({ spec }, 'perpInfo')
  const e = await http.send(method, path, { body: '{"type":"meta"}' })
  const universe = (e.response?.json as { universe?: unknown } | undefined)?.universe
  if (e.response?.status !== 200 || !Array.isArray(universe)) return undefined
  const names = universe.map((u) => (u !== null && typeof u === 'object' ? (u as { name?: unknown }).name : undefined))
  return names.every((n): n is string => typeof n === 'string') ? names : undefined
}

/** A well-formed symbol that is not among the listed ones. */
export function missingSymbolFor(symbols: readonly string[]): string {
  for (let i = 0; ; i++) {
    const s = `OECMISSING${i || ''}-20301231-1-C`
    if (!symbols.includes(s)) return s
  }
}
