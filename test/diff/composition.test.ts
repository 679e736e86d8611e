/**
 * Composition refactors as public specs make them (Stripe's `anyOf: [X, {enum: [""]}]` wraps,
 * GitHub's `{nullable, allOf: [$ref X]}` flattened into `nullable-X`): one finding that names
 * what changed for a client, never properties added or removed that are still there.
 */
import { describe, expect, it } from 'vitest'
import { loadContractText } from '../../src/contract/load.ts'
import { diffSpecs } from '../../src/diff/index.ts'

const X = { type: 'object', properties: { name: { type: 'string', maxLength: 500 }, size: { type: 'integer' } } }

/** A 3.0 document whose POST /things body property `thing` and whose response are `schema`. */
function spec(thing: unknown, components: Record<string, unknown> = {}): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 't', version: '1' },
    paths: {
      '/things': {
        post: {
          operationId: 'make',
          requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { thing: thing } } } } },
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: thing } } } },
        },
      },
    },
    components: { schemas: { X, ...components } },
  })
}

const diff = (b: string, h: string) =>
  diffSpecs(loadContractText(b, 'base.json'), loadContractText(h, 'head.json'), { today: '2026-11-26' })
    // The version rules follow the findings' levels; they are not what this file is about.
    .filter((f) => !f.id.startsWith('api-version-'))
    .map((f) => ({
      id: f.id,
      message: f.message,
    }))

describe('a schema wrapped into a union with itself', () => {
  it('anyOf [X, {enum: [""]}]: one finding per site, "now also accepts the empty string", nothing about maxLength or type', () => {
    const found = diff(spec(X), spec({ anyOf: [X, { type: 'string', enum: [''] }] }))
    expect(found).toEqual([
      { id: 'request-property-any-of-added', message: expect.stringContaining('`thing` now also accepts the empty string') },
      { id: 'response-body-any-of-added', message: expect.stringContaining('may now also be the empty string') },
    ])
  })

  it('an edit inside the wrapped member is still reported, once, under its own name', () => {
    const edited = { ...X, properties: { ...X.properties, name: { type: 'string', maxLength: 100 } } }
    const found = diff(spec(X), spec({ anyOf: [edited, { type: 'string', enum: [''] }] })).map((f) => f.id)
    expect(found.filter((id) => id.includes('max-length'))).toEqual(['request-property-max-length-decreased'])
    expect(found.filter((id) => /property-(removed|added)$|optional-property-added/.test(id))).toEqual([])
  })

  it('unwrapping is one finding: no longer accepts the empty string', () => {
    const found = diff(spec({ anyOf: [X, { type: 'string', enum: [''] }] }), spec(X))
    expect(found).toEqual([
      { id: 'request-property-any-of-removed', message: expect.stringContaining('no longer accepts the empty string') },
      { id: 'response-body-any-of-removed', message: expect.stringContaining('is no longer the empty string') },
    ])
  })

  it('nullable spelled as anyOf [X, {type: null}] is nullable: no finding against nullable X, became-nullable against X', () => {
    const nullableX = { ...X, nullable: true }
    expect(diff(spec(nullableX), spec({ anyOf: [X, { type: 'null' }] }))).toEqual([])
    expect(
      diff(spec(X), spec({ anyOf: [X, { type: 'null' }] }))
        .map((f) => f.id)
        .sort(),
    ).toEqual(['request-property-became-nullable', 'response-body-became-nullable'])
  })
})

describe('allOf of one member flattened into an equal schema', () => {
  it('{nullable, allOf: [$ref X]} → $ref nullable-X with the same properties: no finding at all', () => {
    const base = spec({ nullable: true, allOf: [{ $ref: '#/components/schemas/X' }] })
    const head = spec({ $ref: '#/components/schemas/nullable-X' }, { 'nullable-X': { ...X, nullable: true } })
    expect(diff(base, head)).toEqual([])
  })

  it('a real change made in the same release is the only finding', () => {
    const base = spec({ nullable: true, allOf: [{ $ref: '#/components/schemas/X' }] })
    const head = spec({ $ref: '#/components/schemas/nullable-X' }, { 'nullable-X': { ...X, nullable: false } })
    expect(
      diff(base, head)
        .map((f) => f.id)
        .sort(),
    ).toEqual(['request-property-became-not-nullable', 'response-body-became-not-nullable'])
  })
})

describe("GitHub's 2021 refactor: {title, type: object, nullable, allOf: [$ref X]} → a flat nullable-X copy", () => {
  // As in GitHub's description (e.g. `milestone`): the wrapper carries `title` and `type` beside
  // allOf, so it is not a bare allOf of one member; X's properties reach it only through allOf.
  const Y = { ...X, required: ['name'] }
  const wrapped = { title: 'Y', type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/Y' }] }
  const base = spec(wrapped, { Y })

  it('no "added" finding for a property X already had, in the request or the response', () => {
    const head = spec({ $ref: '#/components/schemas/nullable-Y' }, { Y, 'nullable-Y': { title: 'Y', ...Y, nullable: true } })
    const found = diff(base, head)
    expect(found.filter((f) => /added/.test(f.id))).toEqual([])
    expect(found).toEqual([])
  })

  it('a property the copy really adds, and a real edit of one X had, are still reported', () => {
    const copy = {
      title: 'Y',
      ...Y,
      properties: { ...Y.properties, size: { type: 'string' }, color: { type: 'string' } },
      nullable: true,
    }
    const head = spec({ $ref: '#/components/schemas/nullable-Y' }, { Y, 'nullable-Y': copy })
    const ids = diff(base, head).map((f) => `${f.id} ${f.message}`)
    expect(ids.filter((m) => /added/.test(m))).toEqual([
      expect.stringMatching(/^new-optional-request-property .*color/),
      expect.stringMatching(/^response-optional-property-added .*color/),
    ])
    expect(ids.some((m) => /type-changed|type.*size|size.*type/.test(m))).toBe(true)
    expect(ids.some((m) => /name/.test(m))).toBe(false)
  })
})

describe('a property inherited through allOf on one side and spelled inline on the other', () => {
  it('allOf [$ref X, {properties: {extra}}] → one flat schema: no property added or removed', () => {
    const extra = { type: 'object', properties: { extra: { type: 'boolean' } } }
    const base = spec({ allOf: [{ $ref: '#/components/schemas/X' }, extra] })
    const head = spec({ type: 'object', properties: { ...X.properties, ...extra.properties } })
    expect(diff(base, head).filter((f) => /property-(added|removed)|new-.*-property/.test(f.id))).toEqual([])
    // And back: the flat schema split into allOf members.
    expect(diff(head, base).filter((f) => /property-(added|removed)|new-.*-property/.test(f.id))).toEqual([])
  })
})

describe('anyOf ↔ oneOf with members matched by identity', () => {
  const members = [{ $ref: '#/components/schemas/X' }, { type: 'string', maxLength: 5 }, { type: 'integer' }, { type: 'boolean' }]
  it('anyOf → oneOf over the same members is one finding per site naming exclusivity, not members lost and gained', () => {
    const found = diff(spec({ anyOf: members }), spec({ oneOf: [...members].reverse() }))
    expect(found).toEqual([
      { id: 'request-property-any-of-became-one-of', message: expect.stringContaining('a value must now match exactly one') },
      { id: 'response-body-any-of-became-one-of', message: expect.stringContaining('changed anyOf to oneOf over 4 matching members') },
    ])
  })
  it('oneOf → anyOf, with a member gone: the switch and the one member that went', () => {
    const ids = diff(spec({ oneOf: members }), spec({ anyOf: members.slice(0, 3) }))
      .map((f) => f.id)
      .sort()
    expect(ids).toEqual([
      'request-property-any-of-removed',
      'request-property-one-of-became-any-of',
      'response-body-any-of-removed',
      'response-body-one-of-became-any-of',
    ])
  })
})
