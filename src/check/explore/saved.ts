/**
 * The file `--explore-out` writes and `--replay` reads: the shrunk sequences of a run, each under
 * its case id with the rule it broke, as plain steps (no keys, no ids: a replay draws new wallets).
 */
import { readFileSync } from 'node:fs'
import { InputError } from '../../errors.ts'
import type { SavedSequence } from './explore.ts'
import { foundId, type Found } from './report.ts'

export const SAVED_FORMAT = 'oec-explore/1'

export interface SavedFile {
  readonly format: typeof SAVED_FORMAT
  readonly seed: number
  readonly sequences: readonly SavedSequence[]
}

export function savedFile(seed: number, found: readonly Found[]): SavedFile {
  return {
    format: SAVED_FORMAT,
    seed,
    sequences: found.map((f) => ({ id: foundId(f), rule: f.divergence.rule, what: f.divergence.what, steps: f.steps })),
  }
}

export function parseSaved(text: string, file: string): SavedSequence[] {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (err) {
    throw new InputError(`${file}: not JSON (${(err as Error).message.split('\n')[0]})`)
  }
  const d = doc as Partial<SavedFile> | null
  if (!d || typeof d !== 'object' || d.format !== SAVED_FORMAT || !Array.isArray(d.sequences))
    throw new InputError(`${file}: not a sequence file written by --explore-out (format "${SAVED_FORMAT}")`)
  for (const [i, s] of d.sequences.entries()) {
    if (
      !s ||
      typeof s.id !== 'string' ||
      typeof s.rule !== 'string' ||
      !Array.isArray(s.steps) ||
      s.steps.some((x: { op?: unknown } | null) => !x || typeof x.op !== 'string')
    )
      throw new InputError(`${file}: sequences[${i}] needs an id, a rule and a list of steps`)
  }
  return d.sequences as SavedSequence[]
}

export function loadSaved(file: string): SavedSequence[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw new InputError(`cannot read the sequence file ${file}`)
  }
  return parseSaved(text, file)
}
