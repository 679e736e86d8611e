/**
 * The registry and the checks/ folder agree: every file under checks/ is in the registry exactly
 * once, a check lives in the folder named for its id prefix (one-check files are named for the
 * rest of the id and declare it as a constant), and ids are unique.
 */
import { readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { allChecks } from '../../src/check/server/registry.ts'
import type { Check, CheckFamily } from '../../src/check/server/types.ts'
import { shippedContract } from '../../src/contract/index.ts'

const CHECKS_DIR = fileURLToPath(new URL('../../src/check/server/checks/', import.meta.url))
const spec = shippedContract()

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? walk(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  )
}

const isCheck = (v: unknown): v is Check =>
  typeof v === 'object' && v !== null && typeof (v as Check).id === 'string' && typeof (v as Check).run === 'function'
const isFamily = (v: unknown): v is CheckFamily<string> =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as CheckFamily<string>).family === 'string' &&
  typeof (v as CheckFamily<string>).expand === 'function'

/** The check ids a module exports: single checks, families (expanded for the shipped spec), arrays of checks. */
function exportedIds(mod: Record<string, unknown>): { ids: string[]; constants: string[] } {
  const ids: string[] = []
  const constants: string[] = []
  for (const v of Object.values(mod)) {
    if (isCheck(v)) ids.push(v.id)
    else if (isFamily(v)) ids.push(...v.expand({ spec }).map((c) => c.id))
    else if (Array.isArray(v) && v.length > 0 && v.every(isCheck)) ids.push(...v.map((c) => c.id))
    else if (typeof v === 'string') constants.push(v)
  }
  return { ids: [...new Set(ids)], constants }
}

describe('the server check registry', () => {
  it('holds every check file of checks/ exactly once, each in the folder of its id prefix', async () => {
    const files = walk(CHECKS_DIR)
    expect(files.length).toBeGreaterThan(40)
    const owner = new Map<string, string>()
    for (const file of files) {
      const rel = relative(CHECKS_DIR, file).split(sep)
      expect(rel, `${rel.join('/')}: checks/<prefix>/<name>.ts`).toHaveLength(2)
      const [folder, name] = rel as [string, string]
      const { ids, constants } = exportedIds((await import(pathToFileURL(file).href)) as Record<string, unknown>)
      expect(ids.length, `${folder}/${name} exports no check`).toBeGreaterThan(0)
      for (const id of ids) {
        expect(id.split('.')[0], `${id} lives in checks/${folder}/`).toBe(folder)
        expect(owner.get(id), `${id} is exported by two files`).toBeUndefined()
        owner.set(id, `${folder}/${name}`)
      }
      // A one-check file is named for its id and declares the id as a constant (the oasdiff way).
      if (ids.length === 1 && !Object.values((await import(pathToFileURL(file).href)) as Record<string, unknown>).some(isFamily)) {
        expect(`${folder}.${name.replace(/\.ts$/, '')}`).toBe(ids[0])
        expect(constants).toContain(ids[0])
      }
    }
    const registry = allChecks({ spec }).map((c) => c.id)
    expect(new Set(registry).size, 'registry ids are unique').toBe(registry.length)
    expect([...registry].sort()).toEqual([...owner.keys()].sort())
  })

  it("runs the checks over the whole run's responses last", () => {
    const ids = allChecks({ spec }).map((c) => c.id)
    expect(ids.slice(-2)).toEqual(['err.body-shape', 'err.catalog-codes'])
  })
})
