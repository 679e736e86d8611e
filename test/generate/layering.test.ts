/**
 * The arrows between the generator folders run one way: src/generate → generators →
 * src/contract (and src/errors.ts, which the contract layer itself rests on). Read from the
 * import statements, static and dynamic, of every file involved.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.ts'

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((e) => {
    const path = join(dir, e)
    if (statSync(join(ROOT, path)).isDirectory()) return tsFiles(path)
    return e.endsWith('.ts') ? [path] : []
  })
}

/** Relative imports of a file, as paths from the repository root. */
function imports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)'(\.[^']+)'/g)].map((m) => m[1]!)
  return specifiers.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)))
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`)

describe('generators/ and src/generate/ depend one way', () => {
  it('generators/ imports only itself, src/contract/ and src/errors.ts', () => {
    const files = tsFiles('generators')
    expect(files.length).toBeGreaterThan(5)
    const outward = files.flatMap((f) =>
      imports(f)
        .filter((to) => !inside(to, 'generators') && !inside(to, 'src/contract') && to !== 'src/errors.ts')
        .map((to) => `${f} -> ${to}`),
    )
    expect(outward).toEqual([])
  })

  it('src/contract/ and src/errors.ts import neither generators/ nor src/generate/', () => {
    const files = [...tsFiles('src/contract'), 'src/errors.ts']
    const upward = files.flatMap((f) =>
      imports(f)
        .filter((to) => inside(to, 'generators') || inside(to, 'src/generate'))
        .map((to) => `${f} -> ${to}`),
    )
    expect(upward).toEqual([])
  })

  it('in src/, only src/generate/ reaches into generators/', () => {
    const users = tsFiles('src').filter((f) => imports(f).some((to) => inside(to, 'generators')))
    expect(users.length).toBeGreaterThan(0)
    expect(users.filter((f) => !inside(f, 'src/generate'))).toEqual([])
  })
})
