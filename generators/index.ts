/**
 * The ts-morph emitters behind `oec generate`: spec in, file name → text out. Pure: no file
 * system, no clock, so the same spec always gives the same bytes.
 */
import { createHash } from 'node:crypto'
import type { WriterFunction } from 'ts-morph'
import type { FullContract } from '../src/contract/load.ts'
import { isObject } from '../src/contract/model.ts'
import { emitErrors } from './emit-errors.ts'
import { emitLimits } from './emit-limits.ts'
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

/** The generated files, in a fixed order: types, errors, typed-data, limits, index. */
export function emitAll(spec: FullContract, options: EmitOptions = {}, newWriter: WriterFactory = createWriter): EmittedFile[] {
  const info = isObject(spec.doc.info) ? spec.doc.info : {}
  const stamp: SpecStamp = {
    title: typeof info.title === 'string' ? info.title : 'spec',
    version: spec.version,
    sha256: createHash('sha256').update(spec.text).digest('hex'),
  }
  // One registry across files: `export *` in index.ts must never see the same name twice.
  // The fixed-name modules claim first, so a schema called `ErrorCode` becomes `ErrorCode2`.
  const names = new NameRegistry()
  const errors = emitErrors(spec, names)
  const limits = emitLimits(spec, names)
  const typedData = emitTypedData(spec, names, options)
  const types = emitTypes(spec, names)

  const modules = ['types', 'errors', 'typed-data', 'limits']
  // `.js` specifiers resolve to the .ts files under NodeNext, node10 and bundler resolution alike.
  const index: WriterFunction[] = [(w) => modules.forEach((m) => w.writeLine(`export * from ${stringLiteral(`./${m}.js`)};`))]
  return [
    { name: 'types.ts', text: render(stamp, types, newWriter) },
    { name: 'errors.ts', text: render(stamp, errors, newWriter) },
    { name: 'typed-data.ts', text: render(stamp, typedData, newWriter) },
    { name: 'limits.ts', text: render(stamp, limits, newWriter) },
    { name: 'index.ts', text: render(stamp, index, newWriter) },
  ]
}
