/**
 * What must NOT be reported: the toolkit's own spec against itself, an inline ⇄ `$ref`
 * refactor, a reordered catalog; and the EIP-712 type strings and hashes, checked against ethers.
 */
import { TypedDataEncoder, id as ethersId } from 'ethers'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { diffSpecs } from '../../src/diff/index.ts'
import { encodeType, typeHash } from '../../src/diff/signing.ts'
import { shippedContract } from '../../src/contract/load.ts'
import { getPointer, isObject } from '../../src/contract/model.ts'
import { at, base, edited, type Doc } from './helpers.ts'

/** Every `$ref` to a schema, response, header or parameter below `root`, as [holder, key]. */
function refSites(doc: Doc, root: string): string[] {
  const out: string[] = []
  const walk = (node: unknown, ptr: string) => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, `${ptr}/${i}`))
    if (!isObject(node)) return
    if (typeof node.$ref === 'string') out.push(ptr)
    for (const [k, v] of Object.entries(node)) walk(v, `${ptr}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`)
  }
  walk(getPointer(doc, root), root)
  return out
}

/** Replaces the `$ref` node at `ptr` by a copy of its target (3.1 siblings kept on top). */
function inline(doc: Doc, ptr: string): void {
  const tokens = ptr
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
  const key = tokens.pop()!
  const parent = getPointer(doc, '/' + tokens.map((t) => t.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')) as Record<string, unknown>
  const node = parent[key] as Record<string, unknown>
  const { $ref, ...siblings } = node
  parent[key] = { ...structuredClone(getPointer(doc, String($ref).slice(1)) as object), ...siblings }
}

describe('oec diff: no false positives', () => {
  it('the shipped spec diffed against a fresh load of itself gives no finding', () => {
    expect(diffSpecs(base(), shippedContract())).toEqual([])
  })

  it('an inline ⇄ $ref refactor of every operation is not reported', () => {
    const head = edited((d) => {
      // Copies bring their own refs: repeat until none is left (the spec has no recursive schema).
      for (let sites = refSites(d, '/paths'); sites.length > 0; sites = refSites(d, '/paths'))
        for (const ptr of sites.reverse()) inline(d, ptr)
    })
    expect(refSites(head.doc as Doc, '/paths')).toEqual([])
    expect(diffSpecs(base(), head)).toEqual([])
    // ...and the reverse direction
    expect(diffSpecs(head, base())).toEqual([])
  })

  it('property: any reordering of the catalog plus any set of inlined refs gives no finding', () => {
    const sites = refSites(structuredClone(base().doc) as Doc, '/paths')
    fc.assert(
      fc.property(fc.shuffledSubarray(sites), fc.array(fc.nat(), { minLength: 15, maxLength: 15 }), (chosen, keys) => {
        const head = edited((d) => {
          const codes = d['x-service-error-codes'] as unknown[]
          const order = codes.map((c, i) => [keys[i] ?? 0, i, c] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1])
          d['x-service-error-codes'] = order.map((o) => o[2])
          // Inline deepest first so that a parent's copy never resurrects an inlined child's $ref.
          for (const ptr of [...chosen].sort((a, b) => b.length - a.length)) if (getPointer(d, ptr) !== undefined) inline(d, ptr)
        })
        expect(diffSpecs(base(), head)).toEqual([])
      }),
      { numRuns: 40 },
    )
  })

  it('a real change is still seen through an inlined schema', () => {
    const head = edited((d) => {
      inline(d, '/paths/~1order/post/requestBody/content/application~1json/schema')
      d.paths['/order'].post.requestBody.content['application/json'].schema.required.push('route')
    })
    const f = diffSpecs(base(), head).filter((x) => x.id === 'request-property-became-required')
    expect(f.map((x) => x.pointer)).toEqual(['/paths/~1order/post/requestBody/content/application~1json/schema/properties/route'])
  })

  it('renaming a path parameter is not a change of the operation', () => {
    const add = (name: string) => (d: Doc) => {
      d.paths[`/orders/{${name}}`] = {
        get: {
          operationId: 'getOrder',
          parameters: [{ name, in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok' } },
        },
      }
    }
    expect(diffSpecs(edited(add('id')), edited(add('orderId')))).toEqual([])
  })

  it('an address changing letter case only is not a domain change', () => {
    const head = edited((d) => (at(d, '/x-eip712/domains/options').verifyingContract = '0x000000000000000000000000000000000000DEAD'))
    const lower = edited((d) => (at(d, '/x-eip712/domains/options').verifyingContract = '0x000000000000000000000000000000000000dead'))
    expect(diffSpecs(lower, head)).toEqual([])
  })

  // oasdiff's levels: a relaxed response bound (minimum 1 → 0) is response-property-min-decreased,
  // breaking, since clients may now receive a value they never saw; a tightened one is harmless.
  it('a tightened bound on a response is not reported', () => {
    const head = edited((d) => (at(d, '/components/schemas/RateLimitedBody/allOf/1/properties/retry_after_secs').minimum = 5))
    expect(diffSpecs(base(), head)).toEqual([])
  })

  it('a response enum marked x-extensible-enum may grow', () => {
    const head = edited((d) => {
      const s = at(d, '/components/schemas/OrderResult/properties/status')
      s.enum.push('PENDING')
      s['x-extensible-enum'] = true
    })
    expect(diffSpecs(base(), head).map((f) => f.id)).toEqual([])
  })

  it('output order is deterministic whatever the order of the edits', () => {
    const e1 = (d: Doc) => (at(d, '/components/schemas/Tif').enum = ['gtc'])
    const e2 = (d: Doc) => delete d.paths['/health']
    const e3 = (d: Doc) => (at(d, '/x-rate-limits/tiers/default').ordersPerMinute = 1)
    const a = diffSpecs(
      base(),
      edited((d) => [e1, e2, e3].forEach((e) => e(d))),
    )
    const b = diffSpecs(
      base(),
      edited((d) => [e3, e2, e1].forEach((e) => e(d))),
    )
    expect(a.length).toBeGreaterThan(3)
    expect(b).toEqual(a)
    expect(a.map((f) => f.severity)).toEqual(
      [...a.map((f) => f.severity)].sort((x, y) => ['breaking', 'warning', 'info'].indexOf(x) - ['breaking', 'warning', 'info'].indexOf(y)),
    )
  })
})

describe('EIP-712 type strings and hashes match ethers', () => {
  it('for every message type of the shipped spec', () => {
    const spec = shippedContract()
    const ids = Object.keys(spec.typedData.messages)
    expect(ids.length).toBeGreaterThanOrEqual(7)
    for (const id of ids) {
      const m = spec.typedData.messages[id]!
      const fields = m.fields.map((f) => ({ name: f.name, type: f.type }))
      const theirs = TypedDataEncoder.from({ [m.primaryType]: fields }).encodeType(m.primaryType)
      const ours = encodeType(m.primaryType, fields)
      expect(ours).toBe(theirs)
      expect(typeHash(ours)).toBe(ethersId(theirs))
    }
  })

  it('for nested struct types (the EIP-712 Mail example)', () => {
    const types = {
      Mail: [
        { name: 'from', type: 'Person' },
        { name: 'to', type: 'Person[]' },
        { name: 'contents', type: 'string' },
      ],
      Person: [
        { name: 'name', type: 'string' },
        { name: 'wallet', type: 'address' },
      ],
    }
    const ours = encodeType('Mail', types.Mail, new Map([['Person', types.Person]]))
    expect(ours).toBe(TypedDataEncoder.from(types).encodeType('Mail'))
  })

  it('the finding carries the old and new type hashes', () => {
    const head = edited((d) => d['x-eip712'].messages.CancelOrder.fields.reverse())
    const f = diffSpecs(base(), head).find((x) => x.id === 'eip712-type-hash-changed')!
    const before = f.before as { type: string; typeHash: string }
    const after = f.after as { type: string; typeHash: string }
    expect(before.type).toBe('CancelOrder(address wallet,string orderId,uint64 nonce)')
    expect(after.type).toBe('CancelOrder(uint64 nonce,string orderId,address wallet)')
    expect(before.typeHash).toBe(ethersId(before.type))
    expect(after.typeHash).toBe(ethersId(after.type))
    expect(f.message).toContain(before.typeHash)
    expect(f.message).toContain(after.typeHash)
  })
})
