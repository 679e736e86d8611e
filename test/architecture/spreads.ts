/**
 * Conditional spreads (`...(x !== undefined ? { x } : {})`), found by the TypeScript parser: a
 * spread in an object literal of a conditional, either branch of which is the empty object.
 * Under `exactOptionalPropertyTypes` a property typed `?: T | undefined` takes the value
 * plainly; the spreads that remain are reviewed ones (see spreads.test.ts). Pure: text in, lines out.
 */
import ts from 'typescript'

/** Parentheses and `as`/`satisfies` around an expression do not change what it is. */
function unwrap(e: ts.Expression): ts.Expression {
  let x = e
  while (ts.isParenthesizedExpression(x) || ts.isAsExpression(x) || ts.isSatisfiesExpression(x)) x = x.expression
  return x
}

const isEmptyObject = (e: ts.Expression): boolean => {
  const x = unwrap(e)
  return ts.isObjectLiteralExpression(x) && x.properties.length === 0
}

/** The 1-based lines of the conditional spreads of one file, in source order. */
export function conditionalSpreads(fileName: string, text: string): number[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const out: number[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isSpreadAssignment(node)) {
      const e = unwrap(node.expression)
      if (ts.isConditionalExpression(e) && (isEmptyObject(e.whenFalse) || isEmptyObject(e.whenTrue)))
        out.push(sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1)
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return out
}
