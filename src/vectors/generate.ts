/**
 * `oec vectors generate`: builds every family and writes one JSON file per family. Deterministic:
 * fixed keys, fixed nonces, RFC 6979 signatures and a stable serialization, so a second run
 * writes the same bytes (the test suite checks it).
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { contractFor, type Contract } from '../contract/index.ts'
import type { VectorsContract } from './model.ts'
import { stringifyExact } from './exact-json.ts'
import { mailFamily } from './families/mail.ts'
import { perpFamily } from './families/perp.ts'
import { domainMismatch, nonceFamily, placeOrderValid, stringFormat, structMismatch } from './families/place-order.ts'
import { agentFamily, cancelFamily, signatureEncoding } from './families/signature-agent.ts'
import type { VectorFile } from './model.ts'

export { DEFAULT_VECTORS_DIR } from './paths.ts'
import { DEFAULT_VECTORS_DIR } from './paths.ts'
import { SCHEMA_NAME } from './load.ts'

/** The families in file order; each yields one file `<family>.json`. */
export const FAMILIES: readonly ((spec: VectorsContract) => Promise<VectorFile>)[] = [
  placeOrderValid,
  stringFormat,
  structMismatch,
  domainMismatch,
  nonceFamily,
  signatureEncoding,
  cancelFamily,
  agentFamily,
  perpFamily,
  mailFamily,
]

export function fileNameOf(family: string): string {
  return `${family}.json`
}

/** The exact text written for a file (2-space JSON, trailing newline). */
export function serializeVectorFile(file: VectorFile): string {
  return stringifyExact(file, 2) + '\n'
}

export async function generateVectors(specArg?: Contract | string): Promise<Map<string, string>> {
  const spec = contractFor(specArg, ['catalog', 'typedData', 'rateLimits'], 'oec vectors')
  const out = new Map<string, string>()
  for (const family of FAMILIES) {
    const file = await family(spec)
    out.set(fileNameOf(file.family), serializeVectorFile(file))
  }
  return out
}

export async function writeVectors(
  dir: string = DEFAULT_VECTORS_DIR,
  spec?: Contract | string,
): Promise<{ files: string[]; cases: number }> {
  const files = await generateVectors(spec)
  mkdirSync(dir, { recursive: true })
  let cases = 0
  for (const [name, text] of files) {
    writeFileSync(join(dir, name), text)
    cases += (JSON.parse(text) as VectorFile).numberOfTests
  }
  // A directory of its own gets the schema too, so `oec vectors verify --dir` works on it.
  if (!existsSync(join(dir, SCHEMA_NAME))) copyFileSync(join(DEFAULT_VECTORS_DIR, SCHEMA_NAME), join(dir, SCHEMA_NAME))
  return { files: [...files.keys()], cases }
}
