/**
 * `oec diff` on plain OpenAPI documents (no toolkit extension): each schema keyword family once,
 * with the same schema used as a request and a response body, so one edit shows the verdict of
 * both directions; and the body, parameter and header rules the shipped spec cannot show.
 */
import { describe, expect, it } from 'vitest'
import { DIFF_RULES, diffSpecFromSource, diffSpecs, type DiffFinding } from '../../src/diff/index.ts'

type Doc = Record<string, any>

function spec(doc: Doc) {
  return diffSpecFromSource({ file: 'plain.yaml', text: '', doc, lineOf: () => 1 })
}

/** One operation whose request and 200 response bodies are both `schema`. */
function bodies(schema: unknown, op: Doc = {}): Doc {
  const content = { 'application/json': { schema } }
  return {
    openapi: '3.1.0',
    info: { title: 'plain', version: '1.0.0' },
    paths: { '/x': { post: { requestBody: { required: true, content }, responses: { '200': { description: 'ok', content } }, ...op } } },
  }
}

const ids = (f: readonly DiffFinding[]) => f.map((x) => `${x.id}:${x.severity}`)
/** The id a keyword change has at the body root of `dir`, as the registry names it. */
function rootId(dir: 'request' | 'response', suffix: string): string | undefined {
  return [`${dir}-body-${suffix}`, `response-mediatype-${suffix}`, `${dir}-property-${suffix}`].find(
    (id) => DIFF_RULES[id] && (dir === 'request' ? !id.startsWith('response') : id.startsWith('response')),
  )
}

const families: [suffix: string, before: object, after: object][] = [
  ['list-of-types-narrowed', { type: ['string', 'integer'] }, { type: ['string'] }],
  ['list-of-types-widened', { type: ['string'] }, { type: ['string', 'integer'] }],
  ['const-added', { type: 'string' }, { type: 'string', const: 'a' }],
  ['const-removed', { type: 'string', const: 'a' }, { type: 'string' }],
  ['pattern-generalized', { type: 'string', pattern: '^a' }, { type: 'string', pattern: '.*' }],
  ['max-length-unset', { type: 'string', maxLength: 5 }, { type: 'string' }],
  ['min-set', { type: 'integer' }, { type: 'integer', minimum: 1 }],
  ['exclusive-max-decreased', { type: 'integer', exclusiveMaximum: 10 }, { type: 'integer', exclusiveMaximum: 5 }],
  ['exclusive-max-set', { type: 'integer' }, { type: 'integer', exclusiveMaximum: 5 }],
  ['exclusive-min-increased', { type: 'integer', exclusiveMinimum: 1 }, { type: 'integer', exclusiveMinimum: 2 }],
  ['exclusive-min-set', { type: 'integer' }, { type: 'integer', exclusiveMinimum: 1 }],
  ['min-items-set', { type: 'array', items: { type: 'string' } }, { type: 'array', items: { type: 'string' }, minItems: 1 }],
  ['min-items-unset', { type: 'array', items: { type: 'string' }, minItems: 1 }, { type: 'array', items: { type: 'string' } }],
  ['if-added', { type: 'object' }, { type: 'object', if: { required: ['a'] }, then: { required: ['b'] }, else: { required: ['c'] } }],
  ['then-added', { type: 'object' }, { type: 'object', if: { required: ['a'] }, then: { required: ['b'] } }],
  ['else-added', { type: 'object' }, { type: 'object', if: { required: ['a'] }, else: { required: ['c'] } }],
  ['if-removed', { type: 'object', if: { required: ['a'] }, then: { required: ['b'] } }, { type: 'object' }],
  ['then-removed', { type: 'object', if: { required: ['a'] }, then: { required: ['b'] } }, { type: 'object' }],
  ['else-removed', { type: 'object', if: { required: ['a'] }, else: { required: ['c'] } }, { type: 'object' }],
  ['not-added', { type: 'string' }, { type: 'string', not: { const: 'x' } }],
  ['not-removed', { type: 'string', not: { const: 'x' } }, { type: 'string' }],
  ['all-of-removed-annotation-only', { allOf: [{ type: 'string' }, { description: 'd' }] }, { allOf: [{ type: 'string' }] }],
  ['default-value-added', { type: 'string' }, { type: 'string', default: 'a' }],
  ['default-value-removed', { type: 'string', default: 'a' }, { type: 'string' }],
  [
    'any-of-became-one-of',
    { anyOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] },
    { oneOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] },
  ],
  [
    'one-of-became-any-of',
    { oneOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] },
    { anyOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] },
  ],
]

describe('schema keyword families on a plain document', () => {
  it.each(families)('%s', (suffix, before, after) => {
    const found = diffSpecs(spec(bodies(before)), spec(bodies(after)))
    const expected = (['request', 'response'] as const).map((dir) => rootId(dir, suffix)).filter((id): id is string => id !== undefined)
    expect(expected.length).toBeGreaterThan(0)
    for (const id of expected) expect(ids(found)).toContain(`${id}:${DIFF_RULES[id]!.severity}`)
    // Nested one level down, the same change is named at the property.
    const nested = diffSpecs(
      spec(bodies({ type: 'object', properties: { p: before } })),
      spec(bodies({ type: 'object', properties: { p: after } })),
    )
    const prop = DIFF_RULES[`request-property-${suffix}`] ? `request-property-${suffix}` : `response-property-${suffix}`
    expect(nested.map((f) => f.id)).toContain(prop)
  })

  it('traverses prefixItems, contains, propertyNames and dependentSchemas', () => {
    const b = {
      type: 'array',
      prefixItems: [{ type: 'string' }],
      contains: { type: 'object', properties: { k: { type: 'string', maxLength: 9 } } },
    }
    const h = {
      type: 'array',
      prefixItems: [{ type: 'string', maxLength: 3 }],
      contains: { type: 'object', properties: { k: { type: 'string', maxLength: 4 } } },
    }
    expect(diffSpecs(spec(bodies(b)), spec(bodies(h))).map((f) => f.id)).toEqual(
      expect.arrayContaining(['request-property-max-length-set', 'request-property-max-length-decreased']),
    )
    const ob = {
      type: 'object',
      propertyNames: { maxLength: 9 },
      dependentSchemas: { a: { properties: { n: { type: 'integer', minimum: 0 } } } },
    }
    const oh = {
      type: 'object',
      propertyNames: { maxLength: 4 },
      dependentSchemas: { a: { properties: { n: { type: 'integer', minimum: 1 } } } },
    }
    expect(diffSpecs(spec(bodies(ob)), spec(bodies(oh))).map((f) => f.id)).toEqual(
      expect.arrayContaining(['request-property-max-length-decreased', 'request-property-min-increased']),
    )
  })

  it('a new required readOnly property is not a request break, a new writeOnly one not a response change', () => {
    const b = { type: 'object', properties: { a: { type: 'string' } } }
    const h = {
      type: 'object',
      required: ['id', 'pw'],
      properties: { a: { type: 'string' }, id: { type: 'string', readOnly: true }, pw: { type: 'string', writeOnly: true } },
    }
    const found = diffSpecs(spec(bodies(b)), spec(bodies(h)))
    expect(found.filter((f) => f.message.includes('`id`')).map((f) => f.id)).toEqual(['response-required-property-added'])
    expect(found.filter((f) => f.message.includes('`pw`')).map((f) => f.id)).toEqual(['new-required-request-property'])
  })

  it('matches alternatives by identity: inserting one reports one addition, not a shift', () => {
    const cat = { title: 'Cat', type: 'object', properties: { meow: { type: 'string' } } }
    const dog = { title: 'Dog', type: 'object', properties: { bark: { type: 'string' } } }
    const fox = { title: 'Fox', type: 'object', properties: { say: { type: 'string' } } }
    const found = diffSpecs(spec(bodies({ oneOf: [cat, dog] })), spec(bodies({ oneOf: [fox, cat, dog] })))
    expect(found.map((f) => f.id).sort()).toEqual(
      ['request-body-one-of-added', 'response-body-one-of-added', 'api-version-not-bumped'].sort(),
    )
  })

  it('judges formats by direction: int32 → int64 widens a request and surprises a response', () => {
    const found = diffSpecs(spec(bodies({ type: 'integer', format: 'int32' })), spec(bodies({ type: 'integer', format: 'int64' })))
    expect(ids(found).sort()).toEqual([
      'api-version-not-bumped:breaking',
      'request-body-type-generalized:info',
      'response-body-type-generalized:breaking',
    ])
    const back = diffSpecs(spec(bodies({ type: 'integer', format: 'int64' })), spec(bodies({ type: 'integer', format: 'int32' })))
    expect(ids(back).sort()).toEqual([
      'api-version-not-bumped:breaking',
      'request-body-type-changed:breaking',
      'response-body-type-specialized:info',
    ])
  })

  it("reads OpenAPI 3.0's boolean exclusive bounds in 3.1 terms", () => {
    const same = diffSpecs(
      spec(bodies({ type: 'number', maximum: 10, exclusiveMaximum: true })),
      spec(bodies({ type: 'number', exclusiveMaximum: 10 })),
    )
    expect(same).toEqual([])
    const tighter = diffSpecs(
      spec(bodies({ type: 'number', maximum: 10 })),
      spec(bodies({ type: 'number', maximum: 10, exclusiveMaximum: true })),
    )
    expect(ids(tighter)).toContain('request-body-exclusive-max-set:warning')
  })

  it('walks callbacks and webhooks like operations', () => {
    const hook = (max: number) => ({
      post: {
        requestBody: { content: { 'application/json': { schema: { type: 'string', maxLength: max } } } },
        responses: { '200': { description: 'ok' } },
      },
    })
    const withHooks = (max: number) => ({
      ...bodies({ type: 'string' }, { callbacks: { onEvent: { '{$request.body#/url}': hook(max) } } }),
      webhooks: { ping: hook(max) },
    })
    const found = diffSpecs(spec(withHooks(10)), spec(withHooks(5)))
    const lowered = found.filter((f) => f.id === 'request-body-max-length-decreased').map((f) => f.pointer)
    expect(lowered.sort()).toEqual([
      '/paths/~1x/post/callbacks/onEvent/{$request.body#~1url}/post/requestBody/content/application~1json/schema/maxLength',
      '/webhooks/ping/post/requestBody/content/application~1json/schema/maxLength',
    ])
  })

  it('a pattern widened to .* is not a change that breaks', () => {
    const found = diffSpecs(spec(bodies({ type: 'string', pattern: '^[a-z]+$' })), spec(bodies({ type: 'string', pattern: '^.*$' })))
    expect(found.filter((f) => f.severity !== 'info')).toEqual([])
  })
})

describe('bodies, parameters, headers and security on a plain document', () => {
  const op = (extra: Doc) => ({
    openapi: '3.0.3',
    info: { title: 'p', version: '1.0.0' },
    paths: { '/x': { get: { responses: { '200': { description: 'ok' } }, ...extra } } },
  })
  const body = (required: boolean) => ({ requestBody: { required, content: { 'application/json': { schema: { type: 'object' } } } } })
  const top = (extra: Doc) => ({ ...op({}), ...extra })
  const param = (extra: Doc) => ({ parameters: [{ name: 'q', in: 'query', schema: { type: 'string' }, ...extra }] })
  const cases: [name: string, before: Doc, after: Doc, id: string][] = [
    ['required body added', op({}), op(body(true)), 'request-body-added-required'],
    ['optional body added', op({}), op(body(false)), 'request-body-added-optional'],
    ['body became optional', op(body(true)), op(body(false)), 'request-body-became-optional'],
    ['deprecated parameter removed', op(param({ deprecated: true })), op({}), 'request-parameter-removed-with-deprecation'],
    [
      'parameter removed before its sunset',
      op(param({ deprecated: true, 'x-sunset': '2999-01-01' })),
      op({}),
      'request-parameter-removed-before-sunset',
    ],
    [
      'response header added',
      op({}),
      op({ responses: { '200': { description: 'ok', headers: { 'X-Id': { schema: { type: 'string' } } } } } }),
      'response-header-added',
    ],
    ['stability decreased', op({ 'x-stability-level': 'stable' }), op({ 'x-stability-level': 'beta' }), 'api-stability-decreased'],
    ['stability increased', op({ 'x-stability-level': 'alpha' }), op({ 'x-stability-level': 'beta' }), 'api-stability-increased'],
    [
      'global scope added',
      top({ security: [{ oauth: ['read'] }] }),
      top({ security: [{ oauth: ['read', 'write'] }] }),
      'api-global-security-scope-added',
    ],
    [
      'global scope removed',
      top({ security: [{ oauth: ['read', 'write'] }] }),
      top({ security: [{ oauth: ['read'] }] }),
      'api-global-security-scope-removed',
    ],
    [
      'security scheme type changed',
      top({ components: { securitySchemes: { k: { type: 'apiKey', in: 'header', name: 'K' } } } }),
      top({ components: { securitySchemes: { k: { type: 'http', scheme: 'bearer' } } } }),
      'api-security-component-type-changed',
    ],
  ]
  it('an operation below beta promises nothing: its changes are not findings', () => {
    const alpha = (extra: Doc) => op({ 'x-stability-level': 'alpha', ...extra })
    expect(diffSpecs(spec(alpha(param({}))), spec(alpha({})))).toEqual([])
    expect(diffSpecs(spec(op(param({}))), spec(op({}))).map((f) => f.id)).toEqual(['request-parameter-removed'])
  })

  it.each(cases)('%s', (_name, before, after, id) => {
    const found = diffSpecs(spec(before), spec(after), { today: '2026-11-23' })
    expect(ids(found)).toContain(`${id}:${DIFF_RULES[id]!.severity}`)
  })
})
