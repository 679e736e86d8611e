/** The ts-morph project every emitter prints into, and the header line each file starts with. */
import { IndentationText, NewLineKind, Project, QuoteKind, type WriterFunction } from 'ts-morph'
import { headerLine, type SpecStamp } from './header.ts'

export { HEADER_PREFIX, headerLine, type SpecStamp } from './header.ts'

export function createProject(): Project {
  return new Project({
    useInMemoryFileSystem: true,
    skipLoadingLibFiles: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      quoteKind: QuoteKind.Single,
      newLineKind: NewLineKind.LineFeed,
      useTrailingCommas: true,
    },
  })
}

/**
 * Prints a file: the header line, then each statement writer on the project's CodeBlockWriter
 * (two-space indent, single quotes, LF). Nothing is parsed back: the writers emit complete,
 * formatted declarations, and the tests compile the result with tsc.
 */
export function render(project: Project, stamp: SpecStamp, statements: readonly WriterFunction[]): string {
  const writer = project.createWriter()
  writer.writeLine(headerLine(stamp))
  for (const statement of statements) statement(writer)
  // One trailing newline, no trailing spaces, no runs of blank lines: stable bytes whatever a writer did.
  return writer.toString().replace(/[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n').replace(/\n*$/, '\n')
}
