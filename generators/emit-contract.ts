/**
 * contract.ts: the routes of the operations by operationId, the header names the spec declares and the
 * signed-message kinds of each signing domain. Code that finds an operation by its id or
 * names a header through these constants breaks at compile time when the spec changes.
 */
import type { WriterFunction } from 'ts-morph'
import type { Contract } from '../src/contract/load.ts'
import { isObject } from '../src/contract/model.ts'
import type { NameRegistry } from './names.ts'
import { constValueStatement, typeAliasStatement } from './type-expr.ts'

const constant = constValueStatement

export function emitContract(spec: Contract, names: NameRegistry): WriterFunction[] {
  const operations = Object.fromEntries(spec.operations.map((op) => [op.operationId, { method: op.method, path: op.path }]))
  const components = isObject(spec.doc.components) ? spec.doc.components : {}
  const headers = Object.keys(isObject(components.headers) ? components.headers : {}).sort()
  const n = {
    routes: names.claim('operationRoutes'),
    headerNames: names.claim('headerNames'),
    headerName: names.claim('HeaderName'),
  }
  const out: WriterFunction[] = [
    constant(n.routes, operations, { description: 'Every operation of the spec by operationId: its HTTP method and path template.' }),
    constant(n.headerNames, headers, { description: 'The header names declared under components.headers.' }),
    typeAliasStatement(n.headerName, `(typeof ${n.headerNames})[number]`, {
      description: 'A header name declared under components.headers.',
    }),
  ]
  if (spec.typedData) {
    const kinds: Record<string, string[]> = {}
    for (const m of Object.values(spec.typedData.messages)) {
      const list = (kinds[m.domain] ??= [])
      if (!list.includes(m.primaryType)) list.push(m.primaryType)
    }
    const k = { kinds: names.claim('messageKinds'), kind: names.claim('MessageKind') }
    out.push(
      constant(k.kinds, kinds, {
        description: 'The primary types signed under each signing domain (a kind may have several struct variants).',
      }),
      typeAliasStatement(k.kind, `{ [D in keyof typeof ${k.kinds}]: (typeof ${k.kinds})[D][number] }`, {
        description: 'The message kinds of each signing domain, by domain key.',
      }),
    )
  }
  return out
}
