/**
 * Where the package's shipped files (package.json, spec/, vectors/, bin/) live. The same module
 * runs from src/ in development and from dist/src/ once built and installed, so a fixed `../../`
 * would be right in one place only; the root is found once, by walking up to package.json.
 */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dirname(dir) === dir) throw new Error(`no package.json above ${start}`)
  }
}

export const PACKAGE_ROOT: string = findRoot(dirname(fileURLToPath(import.meta.url)))

/** A path inside the package, e.g. `packagePath('spec', 'openapi.yaml')`. */
export function packagePath(...segments: readonly string[]): string {
  return join(PACKAGE_ROOT, ...segments)
}
