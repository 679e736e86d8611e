/**
 * Counts the contract literals written by hand in the toolkit's source: a string literal that
 * equals an error code, a message kind or id, an operation path or a declared header name of
 * the shipped spec, where the compiler does not check it against the spec. A literal whose
 * contextual type is a union of the generated literal types (`KnownErrorCode`, `OptionsKind`,
 * `RuleId`, ...) is checked, so it is not counted; `'invalid_field'` compared with a plain
 * string is.
 */
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { knownErrorCodes } from '../../src/contract/generated/errors.ts'
import { headerNames, messageKinds, operationRoutes } from '../../src/contract/generated/contract.ts'
import { typedData } from '../../src/contract/generated/typed-data.ts'

export interface LiteralHit {
  readonly file: string
  readonly line: number
  readonly text: string
}

/** What counts as a contract literal, from the generated view of the shipped spec. */
export function contractWords(): Set<string> {
  return new Set<string>([
    ...knownErrorCodes,
    ...Object.values(messageKinds).flat(),
    ...Object.keys(typedData),
    ...Object.values(operationRoutes).map((r) => r.path),
    ...headerNames,
  ])
}

function sourceFiles(dir: string, skip: (path: string) => boolean): string[] {
  const out: string[] = []
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (skip(p)) continue
    if (e.isDirectory()) out.push(...sourceFiles(p, skip))
    else if (e.name.endsWith('.ts')) out.push(p)
  }
  return out
}

/** A literal type argument of a generic whose parameter is constrained to literals (`Code<'x'>`). */
function isConstrainedTypeArgument(checker: ts.TypeChecker, node: ts.StringLiteralLike): boolean {
  let at: ts.Node = node.parent
  while (ts.isLiteralTypeNode(at) || ts.isUnionTypeNode(at.parent) || ts.isParenthesizedTypeNode(at.parent)) {
    if (!ts.isLiteralTypeNode(at) && !ts.isUnionTypeNode(at) && !ts.isParenthesizedTypeNode(at)) break
    if (ts.isTypeReferenceNode(at.parent)) break
    at = at.parent
  }
  const ref = at.parent
  if (!ts.isTypeReferenceNode(ref) || !ref.typeArguments) return false
  const index = ref.typeArguments.indexOf(at as ts.TypeNode)
  const symbol = checker.getSymbolAtLocation(ref.typeName)
  const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
  const decl = target?.declarations?.[0]
  const constraint =
    decl && (ts.isTypeAliasDeclaration(decl) || ts.isInterfaceDeclaration(decl)) ? decl.typeParameters?.[index]?.constraint : undefined
  if (!constraint) return false
  const t = checker.getTypeFromTypeNode(constraint)
  return (t.isUnion() ? t.types : [t]).every((m) => m.isStringLiteral())
}

/** True when the compiler checks this literal against a closed set of literal types. */
function isTyped(checker: ts.TypeChecker, node: ts.StringLiteralLike): boolean {
  if (isConstrainedTypeArgument(checker, node)) return true
  // Compared with a value of a literal union (`===`, `case`): the compiler refuses a literal outside it.
  const parent = node.parent
  const other =
    ts.isBinaryExpression(parent) &&
    [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(parent.operatorToken.kind)
      ? parent.left === node
        ? parent.right
        : parent.left
      : ts.isCaseClause(parent)
        ? parent.parent.parent.expression
        : undefined
  if (other) return isLiteralUnion(checker.getTypeAtLocation(other))
  return isLiteralUnion(checker.getContextualType(node))
}

function isLiteralUnion(t: ts.Type | undefined): boolean {
  if (!t) return false
  const members = t.isUnion() ? t.types : [t]
  const literals = members.filter((m) => m.isStringLiteral())
  // `string | undefined` and friends are open; a union that holds literal types is the spec's.
  return literals.length > 0 && !members.some((m) => (m.flags & ts.TypeFlags.String) !== 0)
}

export function countContractLiterals(root: string, tsconfig: string): LiteralHit[] {
  const skip = (p: string) => {
    const rel = relative(root, p)
    // The generated view of the spec, and vector test data, are where such values belong.
    return rel.startsWith('src/contract/generated') || rel.startsWith('src/vectors/families')
  }
  const files = [...sourceFiles(join(root, 'src'), skip), ...sourceFiles(join(root, 'generators'), skip)]
  const config = ts.getParsedCommandLineOfConfigFile(tsconfig, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!
  const program = ts.createProgram(files, { ...config.options, noEmit: true })
  const checker = program.getTypeChecker()
  const words = contractWords()
  const hits: LiteralHit[] = []
  for (const file of files) {
    const sf = program.getSourceFile(file)!
    const visit = (node: ts.Node): void => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && words.has(node.text)) {
        // Import specifiers and property names are not values of the contract.
        const parent = node.parent
        const isKey = (ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent)) && parent.name === node
        if (!ts.isImportDeclaration(parent) && !ts.isExportDeclaration(parent) && !isKey && !isTyped(checker, node)) {
          hits.push({ file: relative(root, file), line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text })
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(sf)
  }
  return hits
}
