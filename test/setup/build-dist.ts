/**
 * vitest global setup: the tests that spawn bin/oec.js run the compiled CLI in dist/, so dist/
 * must be as new as the sources. When a file under src/ or generators/ (or a tsconfig,
 * package.json or the vector schema) is newer than the build's last output, this builds before
 * any test runs; a fresh `npm ci` (prepare) or an unchanged tree costs only the file walk.
 */
import { execSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
/** Written last by `npm run build`. */
const STAMP = join(ROOT, 'dist', 'src', 'cli', 'commands.json')

function newest(path: string): number {
  const st = statSync(path)
  if (!st.isDirectory()) return st.mtimeMs
  let max = 0
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)))
  return max
}

function builtAt(): number {
  try {
    return statSync(STAMP).mtimeMs
  } catch {
    return -1
  }
}

export default function buildDistIfStale(): void {
  const sources = Math.max(
    // The vector schema too: the build compiles it into dist/ (src/vectors/schema-validator.ts).
    ...['src', 'generators', 'tsconfig.json', 'tsconfig.build.json', 'package.json', join('vectors', 'vectors.schema.json')].map((p) =>
      newest(join(ROOT, p)),
    ),
  )
  if (builtAt() >= sources) return
  process.stderr.write('test setup: dist/ is older than the sources; npm run build\n')
  execSync('npm run build --silent', { cwd: ROOT, stdio: 'inherit' })
}
