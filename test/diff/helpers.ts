/** Fixture pairs for `oec diff`: the shipped spec as base, and a copy with one small edit as head. */
import { diffSpecFromSource, type DiffSpec } from '../../src/diff/index.ts'
import { shippedContract } from '../../src/contract/load.ts'
import { getPointer } from '../../src/contract/model.ts'

export type Doc = Record<string, any>

export const base = (): DiffSpec => shippedContract()

/** A spec built from a deep copy of the shipped document after `edit` (no YAML round trip), loaded as `oec diff` loads it. */
export function edited(edit: (doc: Doc) => void, from: DiffSpec = shippedContract(), file = 'head.yaml'): DiffSpec {
  const doc = structuredClone(from.doc) as Doc
  edit(doc)
  return diffSpecFromSource({ file, text: '', doc, lineOf: () => 1 })
}

/** The node at a JSON pointer of a document under edit; fails loudly when absent. */
export function at(doc: Doc, pointer: string): any {
  const node = getPointer(doc, pointer)
  if (node === undefined) throw new Error(`fixture: nothing at ${pointer}`)
  return node
}

/** Index of a catalog entry by code. */
export function codeIndex(doc: Doc, code: string | number): number {
  const i = (doc['x-service-error-codes'] as { code: unknown }[]).findIndex((e) => e.code === code)
  if (i < 0) throw new Error(`fixture: no code ${code}`)
  return i
}
