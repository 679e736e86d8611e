/**
 * The writer every emitter prints with, and the file framing (header line, final newline).
 *
 * The emitters are ts-morph writer functions (`WriterFunction`: `(writer: CodeBlockWriter) =>
 * void`). ts-morph runs them on a CodeBlockWriter, a class it takes from its own dependency
 * `code-block-writer`. We build that same class here, resolved from ts-morph's install location.
 * That matches what `Project#createWriter()` returns for these settings; a test checks that both
 * give identical bytes. Importing ts-morph's entry point at run time would also load the
 * TypeScript compiler: about 0.6 s of CPU, nearly a third of the 2 s budget for `oec generate`.
 * Nothing here needs the compiler.
 */
import { createRequire } from 'node:module'
import type { CodeBlockWriter, WriterFunction } from 'ts-morph'
import { headerLine, type SpecStamp } from './header.ts'

export { HEADER_PREFIX, headerLine, type SpecStamp } from './header.ts'

const fromTsMorph = createRequire(createRequire(import.meta.url).resolve('ts-morph'))
const Writer = (fromTsMorph('code-block-writer') as { default: typeof CodeBlockWriter }).default

/** ts-morph manipulation settings, as writer options: two-space indent, single quotes, LF. */
export const WRITER_OPTIONS = { newLine: '\n', indentNumberOfSpaces: 2, useTabs: false, useSingleQuote: true } as const

export type WriterFactory = () => CodeBlockWriter

export const createWriter: WriterFactory = () => new Writer(WRITER_OPTIONS)

/**
 * Prints a file: the header line, then each statement writer. Nothing is parsed back: the
 * writers emit complete, formatted declarations, and the tests compile the result with tsc.
 */
export function render(stamp: SpecStamp, statements: readonly WriterFunction[], newWriter: WriterFactory = createWriter): string {
  const writer = newWriter()
  writer.writeLine(headerLine(stamp))
  for (const statement of statements) statement(writer)
  // One trailing newline, no trailing spaces, no runs of blank lines: stable bytes whatever a writer did.
  return writer
    .toString()
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\n*$/, '\n')
}
