/**
 * The `paths`, `operations` and `components` interfaces in the shape openapi-typescript emits,
 * so `createClient<paths>()` from openapi-fetch (and the other clients built on that shape)
 * types its calls against our output: parameters by location, `requestBody.content` and
 * `responses[status].content` by media type.
 */
import type { WriterFunction } from 'ts-morph'
import { stringLiteral, type NameRegistry } from './names.ts'
import { declaration, kw, ref, type Prop, type TypeExpr } from './type-expr.ts'

export interface FetchOperation {
  readonly operationId: string
  /** Lowercase HTTP method. */
  readonly method: string
  readonly path: string
  /** The declared parameter type of each location, and whether any member is required. */
  readonly params: Partial<Record<'query' | 'path' | 'header' | 'cookie', { name: string; required: boolean }>>
  readonly body?: { media: string; type: TypeExpr; required: boolean }
  readonly responses: readonly { status: string | number; media?: string; type?: TypeExpr }[]
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const
const LOCATIONS = [
  ['query', 'query'],
  ['header', 'header'],
  ['path', 'path'],
  ['cookie', 'cookie'],
] as const
const never = kw('never')
const obj = (props: Prop[]): TypeExpr => ({ kind: 'object', props })

function parameters(op: FetchOperation): TypeExpr {
  return obj(
    LOCATIONS.map(([where, key]) => {
      const p = op.params[where]
      return p ? { name: key, type: ref(p.name), optional: !p.required && where !== 'path' } : { name: key, type: never, optional: true }
    }),
  )
}

function operation(op: FetchOperation): TypeExpr {
  const body = op.body
    ? {
        name: 'requestBody',
        type: obj([{ name: 'content', type: obj([{ name: op.body.media, type: op.body.type, optional: false }]), optional: false }]),
        optional: !op.body.required,
      }
    : { name: 'requestBody', type: never, optional: true }
  const responses = op.responses.map(
    (r): Prop => ({
      name: r.status,
      type: obj([
        { name: 'headers', type: { kind: 'object', props: [], index: kw('unknown') }, optional: false },
        r.media !== undefined && r.type !== undefined
          ? { name: 'content', type: obj([{ name: r.media, type: r.type, optional: false }]), optional: false }
          : { name: 'content', type: never, optional: true },
      ]),
      optional: false,
    }),
  )
  return obj([
    { name: 'parameters', type: parameters(op), optional: false },
    body,
    { name: 'responses', type: obj(responses), optional: false },
  ])
}

export function openapiFetchInterfaces(
  ops: readonly FetchOperation[],
  schemaNames: readonly (readonly [string, string])[],
  names: NameRegistry,
): WriterFunction[] {
  const n = { paths: names.claimAs('fetchPaths', 'paths'), operations: names.claim('operations'), components: names.claim('components') }
  const byPath = new Map<string, FetchOperation[]>()
  for (const op of ops) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op])
  const pathProps: Prop[] = [...byPath].map(([path, list]) => ({
    name: path,
    type: obj([
      { name: 'parameters', type: obj(LOCATIONS.map(([, key]) => ({ name: key, type: never, optional: true }))), optional: false },
      ...METHODS.map((m): Prop => {
        const op = list.find((o) => o.method === m)
        return op
          ? { name: m, type: ref(`${n.operations}[${stringLiteral(op.operationId)}]`), optional: false }
          : { name: m, type: never, optional: true }
      }),
    ]),
    optional: false,
  }))
  const empty = (name: string): Prop => ({ name, type: never, optional: false })
  return [
    declaration(n.paths, obj(pathProps), { description: 'Every path and method, in the shape openapi-fetch and openapi-typescript use.' }),
    declaration(n.operations, obj(ops.map((op) => ({ name: op.operationId, type: operation(op), optional: false }))), {
      description: 'Every operation by operationId: parameters by location, request body and responses by media type.',
    }),
    declaration(
      n.components,
      obj([
        {
          name: 'schemas',
          type: obj(schemaNames.map(([key, name]) => ({ name: key, type: ref(name), optional: false }))),
          optional: false,
        },
        empty('responses'),
        empty('parameters'),
        empty('requestBodies'),
        empty('headers'),
        empty('pathItems'),
      ]),
      { description: 'The component schemas by their name in the spec.' },
    ),
  ]
}
