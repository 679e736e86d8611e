/**
 * The import arrows of a source tree, read by the TypeScript parser (never by a regular
 * expression: an import split over lines, a type-only import, `export … from` and a type
 * written `import('./x.ts').T` are all arrows). Only relative specifiers are arrows between our
 * own files; packages and `node:` modules are not. The one I/O edge of the layering check:
 * layers.ts judges what this returns.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import ts from 'typescript'

/** One arrow out of a file: `to` from the tree's root (unresolved: the specifier as written). */
export interface Import {
  readonly to: string
  readonly line: number
  /** No file of the tree answers the specifier. */
  readonly unresolved?: true
  /** An `import()` of a computed path (`to` is its text): an arrow no one can follow. */
  readonly computed?: true
}

/** Every file of the tree (paths from its root, `/`-separated) with the arrows out of it. */
export type ImportGraph = ReadonlyMap<string, readonly Import[]>

/** The `.ts` files under `folders` of `root`, test files left out (a test may import anything). */
export function sourceFiles(root: string, folders: readonly string[]): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((e) => {
        const path = posix.join(dir, e.name)
        if (e.isDirectory()) return walk(path)
        return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts') ? [path] : []
      })
  return folders.flatMap((f) => (existsSync(join(root, f)) ? walk(f) : []))
}

/** The specifiers a file imports, with their 1-based line, in source order. */
export function specifiersOf(fileName: string, text: string): { specifier: string; line: number; computed?: true }[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const out: { specifier: string; line: number; computed?: true }[] = []
  const add = (lit: ts.StringLiteralLike) =>
    out.push({ specifier: lit.text, line: sf.getLineAndCharacterOfPosition(lit.getStart(sf)).line + 1 })
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      add(node.moduleSpecifier)
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const e = node.moduleReference.expression
      if (ts.isStringLiteralLike(e)) add(e)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0]
      if (arg && ts.isStringLiteralLike(arg)) add(arg)
      else if (arg)
        out.push({ specifier: arg.getText(sf), line: sf.getLineAndCharacterOfPosition(arg.getStart(sf)).line + 1, computed: true })
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      add(node.argument.literal)
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return out
}

/** A relative specifier as a file of the tree: as written, or `.js` written for a `.ts` file. */
function resolveIn(files: ReadonlySet<string>, from: string, specifier: string): string | undefined {
  const path = posix.normalize(posix.join(posix.dirname(from), specifier))
  const candidates = [path, path.replace(/\.js$/, '.ts'), `${path}.ts`, `${path}/index.ts`]
  return candidates.find((c) => files.has(c))
}

/** The import graph of `folders` under `root`. */
export function readImportGraph(root: string, folders: readonly string[]): ImportGraph {
  const files = sourceFiles(root, folders)
  const known = new Set(files)
  const graph = new Map<string, Import[]>()
  for (const file of files) {
    const arrows = specifiersOf(file, readFileSync(join(root, file), 'utf8'))
      .filter((s) => s.computed || s.specifier.startsWith('.'))
      .map(({ specifier, line, computed }): Import => {
        if (computed) return { to: specifier, line, computed }
        const to = resolveIn(known, file, specifier)
        return to ? { to, line } : { to: specifier, line, unresolved: true }
      })
    graph.set(file, arrows)
  }
  return graph
}
