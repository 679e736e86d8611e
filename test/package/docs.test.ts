/** The registry tables of docs/ match the registries (regenerate with `npm run docs`). */
import { describe, expect, it } from 'vitest'
import { blockStates } from '../../scripts/docs-tables.ts'

describe('generated docs tables', async () => {
  const states = await blockStates()

  it.each(states.map((s) => [`${s.block.file} (${s.block.name})`, s]))('%s is generated and current', (_name, s) => {
    expect(
      s.expected,
      `${s.block.file}: no <!-- generated:${s.block.name} --> block, or \`oec ${s.block.args.join(' ')}\` failed`,
    ).toBeDefined()
    expect(s.current, `${s.block.file} drifted from \`oec ${s.block.args.join(' ')}\`: run npm run docs`).toBe(s.expected)
  })

  it('a page that differs from the registry is caught (the comparison can fail)', () => {
    const s = states[0]!
    expect(s.current.replace(/\| `[a-z0-9-]+` \|/, '| `renamed-rule` |')).not.toBe(s.expected)
  })
})
