/**
 * `npm run embed:runtime` (and the first step of `npm run build`): writes
 * generators/client-runtime.ts, the client runtime's source as one string that `oec generate`
 * pastes into client.ts. The runtime is real code in src/client-runtime/ (compiled, unit-tested,
 * used by the toolkit's perp signing); the package ships only dist/, so the generator cannot read
 * that source at generate time and carries this copy instead. A test holds it equal to the source.
 *
 * What changes on the way in: each file's header comment and its imports (client.ts is one file,
 * and the generator writes the tables in place of tables.ts) go, and a declaration documented
 * `@internal` loses its `export` (the runtime's files share it; client.ts's users do not see it).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../', import.meta.url))

/** The files client.ts carries, in the order it carries them; tables.ts stays behind. */
export const RUNTIME_FILES = ['model.ts', 'encoding.ts', 'client.ts'] as const

export const EMBEDDED_PATH = join(ROOT, 'generators', 'client-runtime.ts')

/** One runtime file as client.ts carries it. */
export function embeddable(source: string, file: string): string {
  // The header is about the module, not client.ts; the imports come after it.
  if (!source.startsWith('/**')) throw new Error(`src/client-runtime/${file}: must open with its header comment`)
  const text = source
    .replace(/^\/\*\*[\s\S]*?\*\/\n/, '')
    .replace(/^import [\s\S]*?;\n/gm, '')
    .replace(/@internal ((?:(?!\*\/)[\s\S])*\*\/\n)export /g, '$1')
    .replace(/^\n+/, '')
  // A tag the pattern did not strip would reach client.ts's users as a promise it does not keep.
  if (/@internal|^import /m.test(text))
    throw new Error(`src/client-runtime/${file}: @internal must open a doc comment right above an export`)
  return text
}

/** The runtime as client.ts carries it, read from src/client-runtime/. */
export function runtimeText(root: string = ROOT): string {
  return RUNTIME_FILES.map((f) => embeddable(readFileSync(join(root, 'src', 'client-runtime', f), 'utf8'), f)).join('\n')
}

/** The text of generators/client-runtime.ts for a runtime text. */
export function embeddedModule(text: string): string {
  return [
    '// Written by scripts/embed-runtime.ts from src/client-runtime/: do not edit, run `npm run embed:runtime`.',
    '',
    '/** The client runtime (src/client-runtime/model.ts, encoding.ts, client.ts) as client.ts carries it. */',
    `export const RUNTIME_TEXT: string = ${JSON.stringify(text)}`,
    '',
  ].join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const next = embeddedModule(runtimeText())
  let current = ''
  try {
    current = readFileSync(EMBEDDED_PATH, 'utf8')
  } catch {
    // First run: nothing to compare with.
  }
  // Unchanged bytes keep their mtime, so the test setup's staleness check does not rebuild for nothing.
  if (current !== next) writeFileSync(EMBEDDED_PATH, next)
}
