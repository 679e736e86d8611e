/**
 * The ts-morph emitters behind `oec generate`: spec in, file name → text out. Pure: no file
 * system, no clock, so the same spec always gives the same bytes.
 */
import { createHash } from 'node:crypto'
import type { WriterFunction } from 'ts-morph'
import type { Contract, LayerName } from '../src/contract/load.ts'
import { isObject } from '../src/contract/model.ts'
import { emitClient } from './emit-client.ts'
import { emitContract } from './emit-contract.ts'
import { emitErrors } from './emit-errors.ts'
import { emitLimits } from './emit-limits.ts'
import { emitRules } from './emit-rules.ts'
import { emitTypedData, type TypedDataOptions } from './emit-typed-data.ts'
import { emitTypes } from './emit-types.ts'
import { NameRegistry, stringLiteral } from './names.ts'
import { createWriter, render, type SpecStamp, type WriterFactory } from './project.ts'

export { HEADER_PREFIX, headerLine } from './header.ts'
export { createWriter, WRITER_OPTIONS, type WriterFactory } from './project.ts'
export { literalPrefix } from './schema.ts'
export { solidityType } from './emit-typed-data.ts'

export type EmitOptions = TypedDataOptions

export interface EmittedFile {
  /** File name inside the output directory. */
  readonly name: string
  readonly text: string
}

/**
 * The generated files, in a fixed order: types, errors, typed-data, limits, contract, rules,
 * client, index. types.ts and contract.ts come from any OpenAPI document; each other file needs its
 * layer (errors.ts the catalog, typed-data.ts x-eip712, limits.ts x-rate-limits, rules.ts a
 * rule catalog, client.ts signed operations), so a plain document gets only what it describes.
 */
export function emitAll(spec: Contract, options: EmitOptions = {}, newWriter: WriterFactory = createWriter): EmittedFile[] {
  const info = isObject(spec.doc.info) ? spec.doc.info : {}
  const stamp: SpecStamp = {
    title: typeof info.title === 'string' ? info.title : 'spec',
    version: spec.version,
    sha256: createHash('sha256').update(spec.text).digest('hex'),
  }
  const withLayer = <N extends LayerName>(layer: N, emit: (s: Contract<N>) => WriterFunction[]): WriterFunction[] | undefined =>
    spec[layer] === undefined ? undefined : emit(spec as Contract<N>)
  // One registry across files: `export *` in index.ts must never see the same name twice.
  // The fixed-name modules claim first, so a schema called `ErrorCode` becomes `ErrorCode2`.
  const names = new NameRegistry()
  const errors = withLayer('catalog', (s) => emitErrors(s, names))
  const limits = withLayer('rateLimits', (s) => emitLimits(s, names))
  const typedData = withLayer('typedData', (s) => emitTypedData(s, names, options))
  const types = emitTypes(spec, names)
  const contract = emitContract(spec, names)
  const rules = spec.rules ? emitRules(spec.rules, names) : undefined
  // Last: the client refers to names the other files claimed (the operations map, typedData, ErrorCode).
  const client = spec.typedData ? emitClient(spec as Contract<'typedData'>, names) : undefined

  const modules = (
    [
      ['types', types],
      ['errors', errors],
      ['typed-data', typedData],
      ['limits', limits],
      ['contract', contract],
      ['rules', rules],
      ['client', client],
    ] as const
  ).flatMap(([name, statements]) => (statements ? [{ name, statements }] : []))
  // `.js` specifiers resolve to the .ts files under NodeNext, node10 and bundler resolution alike.
  const index: WriterFunction[] = [(w) => modules.forEach((m) => w.writeLine(`export * from ${stringLiteral(`./${m.name}.js`)};`))]
  return [...modules, { name: 'index', statements: index }].map((m) => ({
    name: `${m.name}.ts`,
    text: render(stamp, m.statements, newWriter),
  }))
}
