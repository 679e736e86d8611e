/**
 * The pass over src/server (server-behaviours.ts) stays whole: every module of the reference
 * server is in a behaviour row, every row names checks (or says why only this server is held to
 * it), and every check named is in the registry. A new server module, or a behaviour whose check
 * is removed, fails here until its row says which check covers it.
 */
import { readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { allChecks } from '../../src/check/server/registry.ts'
import { shippedContract } from '../../src/contract/index.ts'
import { SERVER_BEHAVIOURS } from './server-behaviours.ts'

const SERVER_DIR = fileURLToPath(new URL('../../src/server/', import.meta.url))

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? modules(join(dir, d.name))
      : d.name.endsWith('.ts')
        ? [relative(SERVER_DIR, join(dir, d.name)).split(sep).join('/')]
        : [],
  )
}

describe('every behaviour of the reference server has a check', () => {
  const ids = allChecks({ spec: shippedContract() }).map((c) => c.id)

  it('names every module of src/server in some behaviour', () => {
    const named = new Set(SERVER_BEHAVIOURS.flatMap((b) => b.modules))
    expect(modules(SERVER_DIR).filter((m) => !named.has(m))).toEqual([])
    expect([...named].filter((m) => !modules(SERVER_DIR).includes(m))).toEqual([])
  })

  it('gives every behaviour a check, or the reason no other server is held to it', () => {
    const bare = SERVER_BEHAVIOURS.filter((b) => b.checks.length === 0 && !b.reference)
    expect(bare.map((b) => b.what)).toEqual([])
  })

  it('names only checks (or cases of checks) that are in the registry', () => {
    const missing = SERVER_BEHAVIOURS.flatMap((b) =>
      b.checks
        .filter((sel) => !ids.some((id) => id === sel || sel.startsWith(`${id}/`) || id.startsWith(`${sel}/`)))
        .map((sel) => `${b.what}: ${sel}`),
    )
    expect(missing).toEqual([])
  })
})
