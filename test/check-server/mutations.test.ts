/** The mutation engine: derived from the spec, seeded and reproducible, signability right. */
import { describe, expect, it } from 'vitest'
import { deriveMutations, REMOVE, type SchemaInfo } from '../../src/check/server/mutations.ts'
import { signedTargets } from '../../src/check/server/checks/mutate/signed-schemas.ts'
import { createRng } from '../../src/check/server/rng.ts'
import { RawJson, type BodyValue } from '../../src/check/target/requests.ts'
import { shippedContract } from '../../src/contract/index.ts'

const spec = shippedContract()
const targets = signedTargets(spec)
const placeOrder = targets.find((t) => t.info.name === 'PlaceOrderRequest')!

const base = new Map<string, BodyValue>([
  ['wallet', '0x1111111111111111111111111111111111111111'],
  ['symbol', 'BTC-20261225-100000-C'],
  ['side', 'Buy'],
  ['size', '1'],
  ['price', '100.5'],
  ['tif', 'gtc'],
  ['route', 'book_only'],
  ['client_id', 'abc'],
  ['nonce', 42n],
])

const derive = (seed: number, info: SchemaInfo = placeOrder.info) => deriveMutations(spec.doc, info, base, createRng(seed, 'x'))
const show = (v: unknown) =>
  v === REMOVE ? '<removed>' : v instanceof RawJson ? `raw:${v.text}` : JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x))

describe('signed request schemas come from the spec', () => {
  it('finds every signed options body and the operation that takes it', () => {
    const names = targets.map((t) => `${t.info.name} ${t.method} ${t.path} ${t.kind}`)
    expect(names).toEqual(
      expect.arrayContaining([
        'PlaceOrderRequest POST /order PlaceOrder',
        'CancelOrderRequest DELETE /order CancelOrder',
        'CancelOrderByClientIdRequest DELETE /order CancelOrderByClientId',
        'ApproveAgentRequest POST /approve-agent ApproveAgent',
        'RevokeAgentRequest POST /revoke-agent RevokeAgent',
      ]),
    )
    // The perp body is signed over a derived hash, not field by field: it has its own checks.
    expect(targets.some((t) => t.path === '/exchange')).toBe(false)
    expect(placeOrder.info.typed.get('client_id')).toEqual({ name: 'clientId', type: 'string' })
  })
})

describe('deriveMutations', () => {
  it('is reproducible for a seed and varies with it', () => {
    const a = derive(7).map((m) => `${m.id}=${show(m.value)}`)
    const b = derive(7).map((m) => `${m.id}=${show(m.value)}`)
    const c = derive(8).map((m) => `${m.id}=${show(m.value)}`)
    expect(a).toEqual(b)
    expect(c).not.toEqual(a)
    expect(new Set(a.map((x) => x.split('=')[0])).size).toBe(a.length)
  })

  it('covers every kind: type, pattern, enum, boundary, required, unknown', () => {
    const kinds = new Set(derive(1).map((m) => m.kind))
    for (const k of ['type', 'pattern', 'enum', 'boundary', 'required', 'unknown']) expect(kinds.has(k as never), k).toBe(true)
  })

  it('breaks patterns and enums for real (each value fails the spec constraint)', () => {
    const patterns: Record<string, RegExp> = {
      price: /^(0|[1-9][0-9]*)(\.[0-9]+)?$/,
      size: /^(0|[1-9][0-9]*)(\.[0-9]+)?$/,
      wallet: /^0x[0-9a-fA-F]{40}$/,
    }
    const all = derive(3)
    const broken = all.filter((m) => m.kind === 'pattern' && m.field in patterns)
    const enums = all.filter((m) => m.kind === 'enum')
    // Every pattern field and every enum field gets mutations; none may go unchecked.
    expect(new Set(broken.map((m) => m.field))).toEqual(new Set(Object.keys(patterns)))
    expect(new Set(enums.map((m) => m.field))).toEqual(new Set(['side', 'tif', 'route']))
    for (const m of broken) expect(patterns[m.field]!.test(String(m.value)), m.id).toBe(false)
    for (const m of enums) expect(['Buy', 'Sell', 'gtc', 'ioc', 'fok', 'best_execution', 'book_only', 'rfq_only']).not.toContain(m.value)
  })

  it('re-signs only what is still signable', () => {
    const byId = new Map(derive(1).map((m) => [m.id, m]))
    // A string field can carry any string, even one the server must refuse.
    expect(byId.get('side.enum-1')?.resign).toBe(byId.get('side.enum-1')?.value)
    // A number price is signed as the string of its digits (the classic client bug).
    expect(byId.get('price.type-number')?.resign).toBe('100.5')
    expect(byId.get('price.type-number')?.codes).toEqual(['signature_verification_failed'])
    // An address field cannot be signed with a broken address; a nonce only when it is a uint64.
    for (const m of byId.values()) if (m.field === 'wallet' && m.kind === 'pattern') expect(m.resign).toBeUndefined()
    expect(byId.get('nonce.boundary-below-minimum')?.resign).toBeUndefined()
    expect(byId.get('nonce.boundary-above-maximum')?.value).toEqual(new RawJson('18446744073709551616'))
    expect(byId.get('nonce.boundary-exponent')?.resign).toBe(1000n)
    expect(byId.get('nonce.type-string')?.resign).toBe(42n)
    // Removed fields and unknown fields are never "re-signed".
    expect(byId.get('symbol.required')?.value).toBe(REMOVE)
    expect(byId.get('symbol.required')?.resign).toBeUndefined()
    expect(byId.get('clientId.unknown')?.signedField).toBe(false)
  })

  it('levels follow the spec: stated body rules fail, assumed ones warn', () => {
    const byId = new Map(derive(1).map((m) => [m.id, m]))
    expect(byId.get('side.enum-1')?.level).toBe('stated')
    expect(byId.get('side.enum-1')?.rules).toContain('PO-1')
    expect(byId.get('clientId.unknown')?.level).toBe('assumed')
    expect(byId.get('price.pattern-1')?.level).toBe('assumed') // the decimal grammar is assumed (PO-10)
    const cancel = targets.find((t) => t.info.name === 'CancelOrderRequest')!
    const cm = deriveMutations(
      spec.doc,
      cancel.info,
      new Map<string, BodyValue>([
        ['wallet', '0x1111111111111111111111111111111111111111'],
        ['order_id', '7'],
        ['nonce', 1n],
      ]),
      createRng(1, 'x'),
    )
    expect(cm.every((m) => m.level === 'assumed')).toBe(true) // the cancel body is assumed
    expect(cm.some((m) => m.id === 'order_id.min-length')).toBe(true)
  })
})
