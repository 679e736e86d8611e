/** The pretty reporter prints each skip reason once, with how many cases it skipped and which. */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createReporter, skipGroups, type CaseResult } from '../../src/report/index.ts'

const SLOW = 'needs a rate-limit window reset: run with --slow'
const SYMBOLS = 'needs 51 listed instruments to open 50 positions and try one more (have 1)'
const skip = (id: string, message: string): CaseResult => ({
  id,
  title: id,
  rules: ['RL-1'],
  level: 'stated',
  outcome: 'skip',
  message,
  durationMs: 0,
})
const results: CaseResult[] = [
  skip('rl.order-limit', SLOW),
  { id: 'auth.direct-order', title: 'ok', rules: ['AUTH-1'], level: 'stated', outcome: 'pass', durationMs: 1 },
  skip('cap.positions', SYMBOLS),
  ...Array.from({ length: 8 }, (_, i) => skip(`rl.case-${i}`, SLOW)),
]

function pretty(): string {
  const out = new PassThrough()
  let text = ''
  out.on('data', (d) => (text += d))
  const r = createReporter('pretty', out, { color: false })
  for (const x of results) r.onResult(x)
  r.finish({ suite: 'oec check server', target: 'http://127.0.0.1:1', results, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 10 })
  return text
}

describe('skips in the pretty report', () => {
  it('groups skipped cases by reason, largest group first', () => {
    expect(skipGroups(results)).toEqual([
      { reason: SLOW, ids: ['rl.order-limit', ...Array.from({ length: 8 }, (_, i) => `rl.case-${i}`)] },
      { reason: SYMBOLS, ids: ['cap.positions'] },
    ])
  })

  it('prints each reason once with its count and the first case ids', () => {
    const text = pretty()
    expect(text.split(SLOW)).toHaveLength(2)
    expect(text.split(SYMBOLS)).toHaveLength(2)
    expect(text).toContain('Skipped (10 case(s), 2 reason(s); each reason once)')
    expect(text).toContain(`SKIP 9 × ${SLOW}`)
    expect(text).toContain('rl.order-limit, rl.case-0, rl.case-1, rl.case-2, rl.case-3, rl.case-4, … (3 more)')
    expect(text).toContain(`SKIP 1 × ${SYMBOLS}\n     cap.positions\n`)
  })
})
