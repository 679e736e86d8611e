/**
 * One command per step kind: every kind the step union has (as the arbitraries draw them and as
 * the source declares them) is served by exactly one command, and no command serves a kind the
 * union lacks. The union is read from steps.ts itself, so a new kind without its command fails here.
 */
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { COMMANDS, commandFor, describeStep } from '../../src/check/explore/commands/index.ts'
import { stepArbitrary, type Step } from '../../src/check/explore/steps.ts'

/** The `op` literals of the `Step` union, as the source declares them. */
function unionOps(): string[] {
  const src = readFileSync(new URL('../../src/check/explore/steps.ts', import.meta.url), 'utf8')
  const union = src.slice(src.indexOf('export type Step ='), src.indexOf('// Wallet 0 and agent 0'))
  const ops = new Set<string>()
  for (const m of union.matchAll(/readonly op: ((?:'[a-z-]+'\s*\|?\s*)+)/g))
    for (const lit of m[1]!.matchAll(/'([a-z-]+)'/g)) ops.add(lit[1]!)
  return [...ops].sort()
}

describe('explorer commands', () => {
  it('every kind of the Step union has one command, and every command serves only kinds of the union', () => {
    const declared = unionOps()
    expect(declared.length).toBeGreaterThan(10)
    const served = COMMANDS.flatMap((c) => [...c.ops])
    // One command per kind: no kind served twice.
    expect(served.length).toBe(new Set(served).size)
    expect([...served].sort()).toEqual(declared)
  })

  it('an unknown kind is refused by name', () => {
    expect(() => commandFor('teleport' as Step['op'])).toThrow(/step kind teleport/)
  })

  it('every drawn step, bursts included, is described by its command', () => {
    fc.assert(
      fc.property(stepArbitrary({ listed: 5, canWait: true, statuses: ['OPEN', 'FILLED'] }), (s) => {
        const line = describeStep(s)
        expect(line.length).toBeGreaterThan(0)
        if (s.op === 'burst') expect(line).toBe(`${s.n}× at once: ${describeStep(s.step)}`)
        else if (s.op !== 'flood' && s.op !== 'wait' && s.op !== 'fill') expect(line.startsWith(`${s.op} {`)).toBe(true)
      }),
      { seed: 36, numRuns: 300 },
    )
  })

  it('a burst repeats only kinds whose command can build their one request unsent', () => {
    const repeatable = COMMANDS.filter((c) => c.burstBody).flatMap((c) => [...c.ops])
    fc.assert(
      fc.property(stepArbitrary({ listed: 3, canWait: false }), (s) => {
        if (s.op === 'burst') expect(repeatable).toContain(s.step.op)
      }),
      { seed: 36, numRuns: 300 },
    )
  })
})
