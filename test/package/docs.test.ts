/** The registry tables of docs/ match the registries (regenerate with `npm run docs`). */
import { describe, expect, it } from 'vitest'
import { blockStates } from '../../scripts/docs-tables.ts'

describe('generated docs tables', async () => {
  const states = await blockStates()

  it.each(states.filter((s) => s.block.name !== 'diff-rules').map((s) => [s.block.file, s]))('%s is generated and current', (_file, s) => {
    expect(s.expected, `${s.block.file}: no <!-- generated:${s.block.name} --> block`).toBeDefined()
    expect(s.current, `${s.block.file} drifted from \`oec ${s.block.args.join(' ')}\`: run npm run docs`).toBe(s.expected)
  })

  // `oec diff --list-rules` arrives from another branch; once the CLI has it, its table must be current too.
  it('diff.md: current whenever oec diff can list its rules', () => {
    const diff = states.find((s) => s.block.name === 'diff-rules')!
    if (diff.expected !== undefined) expect(diff.current).toBe(diff.expected)
    else expect(diff.current).not.toContain('<!-- npm run docs: from `oec diff')
  })
})
