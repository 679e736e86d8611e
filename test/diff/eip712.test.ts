/**
 * The EIP-712 rules of the diff, finding by finding (exact pointers, messages, before/after), and
 * encodeType/typeHash against the EIP-712 specification's own example.
 */
import { describe, expect, it } from 'vitest'
import { diffSpecs, type DiffSpec } from '../../src/diff/index.ts'
import { encodeType, typeHash } from '../../src/diff/signing.ts'
import { at, base, edited, type Doc } from './helpers.ts'

const EIP712_RULES = new Set([
  'eip712-domain-changed',
  'eip712-domain-removed',
  'eip712-domain-added',
  'eip712-message-removed',
  'eip712-message-added',
  'eip712-type-hash-changed',
  'eip712-primary-type-renamed',
  'eip712-message-domain-changed',
  'signed-field-mapping-changed',
  'signed-body-message-changed',
])
const findings = (b: DiffSpec, h: DiffSpec) =>
  diffSpecs(b, h, { today: '2026-11-21' })
    .filter((f) => EIP712_RULES.has(f.id))
    .map(({ severity: _s, ...f }) => f)
const diffOf = (edit: (d: Doc) => void, baseEdit?: (d: Doc) => void) =>
  findings(
    baseEdit ? edited(baseEdit) : base(),
    edited((d) => {
      baseEdit?.(d)
      edit(d)
    }),
  )
const msg = (d: Doc, id: string) => at(d, `/x-eip712/messages/${id}`)
const domain = (d: Doc, name: string) => at(d, `/x-eip712/domains/${name}`)
const CANCEL = 'CancelOrder(address wallet,string orderId,uint64 nonce)'

describe('encodeType and typeHash', () => {
  const person = [
    { name: 'name', type: 'string' },
    { name: 'wallet', type: 'address' },
  ]
  const mail = [
    { name: 'from', type: 'Person' },
    { name: 'to', type: 'Person' },
    { name: 'contents', type: 'string' },
  ]

  it('reproduces the EIP-712 Mail example', () => {
    const t = encodeType('Mail', mail, new Map([['Person', person]]))
    expect(t).toBe('Mail(Person from,Person to,string contents)Person(string name,address wallet)')
    expect(typeHash(t)).toBe('0xa0cedeb2dc280ba39b857546d74f5549c3a1d7bdc2dd96bf881f76108e23dac2')
    expect(encodeType('Person', person)).toBe('Person(string name,address wallet)')
    expect(encodeType('Empty', [])).toBe('Empty()')
  })

  it('appends referenced structs once, sorted, through arrays and nested references; ignores itself and unknown types', () => {
    const structs = new Map([
      ['Zeta', [{ name: 'a', type: 'Alpha' }]],
      ['Alpha', [{ name: 'x', type: 'uint8' }]],
      ['Beta', [{ name: 'self', type: 'Beta[]' }]],
      ['Top', [{ name: 'n', type: 'uint8' }]],
    ])
    expect(
      encodeType(
        'Top',
        [
          { name: 'z', type: 'Zeta[2]' },
          { name: 'b', type: 'Beta[]' },
          { name: 'b2', type: 'Beta' },
          { name: 'me', type: 'Top[]' },
          { name: 'u', type: 'Unknown' },
        ],
        structs,
      ),
    ).toBe('Top(Zeta[2] z,Beta[] b,Beta b2,Top[] me,Unknown u)Alpha(uint8 x)Beta(Beta[] self)Zeta(Alpha a)')
  })
})

describe('EIP-712 domains', () => {
  it('a changed value: pointer at the field, both values in words and as data', () => {
    expect(diffOf((d) => (domain(d, 'options').chainId = 1))).toEqual([
      {
        id: 'eip712-domain-changed',
        pointer: '/x-eip712/domains/options/chainId',
        message: "The options signing domain's chainId changed from 999 to 1, which invalidates every signature made under it.",
        before: 999,
        after: 1,
      },
    ])
  })

  it('a value added or removed reads "absent"; descriptions, extensions and address letter case are no change', () => {
    expect(diffOf((d) => (domain(d, 'perps').salt = '0x01'))).toEqual([
      {
        id: 'eip712-domain-changed',
        pointer: '/x-eip712/domains/perps/salt',
        message: "The perps signing domain's salt changed from absent to 0x01, which invalidates every signature made under it.",
        before: null,
        after: '0x01',
      },
    ])
    expect(diffOf((d) => delete domain(d, 'perps').version)).toEqual([
      {
        id: 'eip712-domain-changed',
        pointer: '/x-eip712/domains/perps/version',
        message: "The perps signing domain's version changed from 1 to absent, which invalidates every signature made under it.",
        before: '1',
        after: null,
      },
    ])
    const mixed = '0x00000000000000000000000000000000000000aB'
    const lower = mixed.toLowerCase()
    expect(
      diffOf(
        (d) => {
          domain(d, 'options').verifyingContract = mixed
          domain(d, 'options').description = 'another text'
          domain(d, 'options')['x-note'] = 'ignored'
        },
        (d) => (domain(d, 'options').verifyingContract = lower),
      ),
    ).toEqual([])
    // A non-hex string keeps its case.
    expect(diffOf((d) => (domain(d, 'options').name = 'service')).map((f) => [f.pointer, f.before, f.after])).toEqual([
      ['/x-eip712/domains/options/name', 'Service', 'service'],
    ])
  })

  it('several changed values come sorted by field name', () => {
    expect(
      diffOf((d) => {
        domain(d, 'options').version = '2'
        domain(d, 'options').chainId = 5
      }).map((f) => f.pointer),
    ).toEqual(['/x-eip712/domains/options/chainId', '/x-eip712/domains/options/version'])
  })

  it('a domain removed or added; a changed domain type', () => {
    expect(
      diffOf((d) => {
        const ext = at(d, '/x-eip712')
        ext.domains.spot = { ...ext.domains.perps }
        delete ext.domains.perps
      }).filter((f) => f.id !== 'eip712-message-domain-changed'),
    ).toEqual([
      { id: 'eip712-domain-removed', pointer: '/x-eip712/domains/perps', message: 'The signing domain perps was removed.' },
      { id: 'eip712-domain-added', pointer: '/x-eip712/domains/spot', message: 'The signing domain spot was added.' },
    ])
    expect(diffOf((d) => at(d, '/x-eip712/domainType').push({ name: 'salt', type: 'bytes32' }))).toEqual([
      {
        id: 'eip712-domain-changed',
        pointer: '/x-eip712/domainType',
        message:
          'The EIP-712 domain type changed from `EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)` to `EIP712Domain(string name,string version,uint256 chainId,address verifyingContract,bytes32 salt)`, so every domain separator changes.',
        before: 'EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)',
        after: 'EIP712Domain(string name,string version,uint256 chainId,address verifyingContract,bytes32 salt)',
      },
    ])
  })
})

describe('EIP-712 messages', () => {
  it('a changed field type: both type strings and type hashes', () => {
    const after = 'CancelOrder(address wallet,string orderId,uint256 nonce)'
    expect(diffOf((d) => (msg(d, 'CancelOrder').fields[2].type = 'uint256'))).toEqual([
      {
        id: 'eip712-type-hash-changed',
        pointer: '/x-eip712/messages/CancelOrder/fields',
        message: `The signed message CancelOrder changed its type from \`${CANCEL}\` (typeHash ${typeHash(CANCEL)}) to \`${after}\` (typeHash ${typeHash(after)}), so signatures made for the old type no longer verify.`,
        before: { type: CANCEL, typeHash: typeHash(CANCEL) },
        after: { type: after, typeHash: typeHash(after) },
      },
    ])
  })

  it('a renamed struct, a message moved to another domain', () => {
    const renamed = diffOf((d) => (msg(d, 'CancelOrder').primaryType = 'Cancel'))
    expect(renamed.map((f) => f.id)).toEqual(['eip712-type-hash-changed', 'eip712-primary-type-renamed'])
    expect(renamed[1]).toEqual({
      id: 'eip712-primary-type-renamed',
      pointer: '/x-eip712/messages/CancelOrder/primaryType',
      message: 'The signed message CancelOrder renamed its struct from CancelOrder to Cancel.',
      before: 'CancelOrder',
      after: 'Cancel',
    })
    expect(diffOf((d) => (msg(d, 'CancelOrder').domain = 'perps'))).toEqual([
      {
        id: 'eip712-message-domain-changed',
        pointer: '/x-eip712/messages/CancelOrder/domain',
        message: 'The signed message CancelOrder moved from the options domain to the perps domain.',
        before: 'options',
        after: 'perps',
      },
    ])
  })

  it('a typed field carried by another body property, at its index in head', () => {
    expect(diffOf((d) => (msg(d, 'CancelOrder').fields[1].body = 'oid'))).toEqual([
      {
        id: 'signed-field-mapping-changed',
        pointer: '/x-eip712/messages/CancelOrder/fields/1',
        message: 'The typed field CancelOrder.orderId is now carried by the body property oid instead of order_id.',
        before: 'order_id',
        after: 'oid',
      },
    ])
    // A field new in head has no old mapping to compare.
    expect(diffOf((d) => msg(d, 'CancelOrder').fields.push({ name: 'extra', type: 'string', body: 'extra' })).map((f) => f.id)).toEqual([
      'eip712-type-hash-changed',
    ])
  })

  it('a message removed or added', () => {
    const removed = diffOf((d) => delete at(d, '/x-eip712/messages').RevokeAgent)
    expect(removed).toContainEqual({
      id: 'eip712-message-removed',
      pointer: '/x-eip712/messages/RevokeAgent',
      message: 'The signed message RevokeAgent was removed.',
    })
    expect(removed.filter((f) => f.id.startsWith('eip712-message-add'))).toEqual([])
    expect(
      diffOf(
        (d) => (at(d, '/x-eip712/messages').Ping = { domain: 'options', primaryType: 'Ping', fields: [{ name: 'nonce', type: 'uint64' }] }),
      ),
    ).toEqual([{ id: 'eip712-message-added', pointer: '/x-eip712/messages/Ping', message: 'The signed message Ping was added.' }])
  })

  it('structs defined by other messages of the same domain enter the type string, unless two messages share the name', () => {
    const leg = { domain: 'options', primaryType: 'Leg', fields: [{ name: 'size', type: 'string' }] }
    const withLeg = (d: Doc) => {
      at(d, '/x-eip712/messages').Leg = structuredClone(leg)
      msg(d, 'CancelOrder').fields.push({ name: 'legs', type: 'Leg[]', body: 'legs' })
    }
    const before = 'CancelOrder(address wallet,string orderId,uint64 nonce,Leg[] legs)Leg(string size)'
    const after = 'CancelOrder(address wallet,string orderId,uint64 nonce,Leg[] legs)Leg(string size,string price)'
    // Leg gains a field: CancelOrder's type changes with it (Leg's own change is reported too).
    const found = diffOf((d) => msg(d, 'Leg').fields.push({ name: 'price', type: 'string' }), withLeg)
    expect(found.find((f) => f.pointer === '/x-eip712/messages/CancelOrder/fields')).toMatchObject({
      before: { type: before, typeHash: typeHash(before) },
      after: { type: after, typeHash: typeHash(after) },
    })
    // A Leg in another domain is no struct of the options domain.
    const perpsLeg = diffOf((d) => (msg(d, 'Leg').domain = 'perps'), withLeg)
    expect(perpsLeg.find((f) => f.pointer === '/x-eip712/messages/CancelOrder/fields')).toMatchObject({
      after: { type: 'CancelOrder(address wallet,string orderId,uint64 nonce,Leg[] legs)' },
    })
    // Two options messages named Leg: ambiguous, so neither is used.
    const twoLegs = diffOf((d) => (at(d, '/x-eip712/messages').Leg2 = structuredClone(leg)), withLeg)
    expect(twoLegs.find((f) => f.pointer === '/x-eip712/messages/CancelOrder/fields')).toMatchObject({
      after: { type: 'CancelOrder(address wallet,string orderId,uint64 nonce,Leg[] legs)' },
    })
  })
})

describe('signed request bodies', () => {
  const signedOf = (d: Doc, name: string) => at(d, `/components/schemas/${name}/x-eip712-signed`)

  it('another signature property, another variant rule, another derived field, or no longer signed', () => {
    const was = 'signature in signature; signed as PlaceOrder when route is present, or PlaceOrderWithoutRoute when route is absent'
    expect(diffOf((d) => (signedOf(d, 'PlaceOrderRequest').signature = 'sig'))).toEqual([
      {
        id: 'signed-body-message-changed',
        pointer: '/components/schemas/PlaceOrderRequest/x-eip712-signed',
        message: `The request body PlaceOrderRequest is now ${was.replace('in signature', 'in sig')} (was: ${was}), so existing clients' signatures no longer verify.`,
        before: was,
        after: was.replace('in signature', 'in sig'),
      },
    ])
    expect(diffOf((d) => (signedOf(d, 'PerpRequest').derived = 'hash')).map((f) => [f.before, f.after])).toEqual([
      [
        'signature in signature, connectionId derived from the body; signed as Agent',
        'signature in signature, hash derived from the body; signed as Agent',
      ],
    ])
    expect(diffOf((d) => delete at(d, '/components/schemas/CancelOrderRequest')['x-eip712-signed'])).toEqual([
      {
        id: 'signed-body-message-changed',
        pointer: '/components/schemas/CancelOrderRequest/x-eip712-signed',
        message:
          "The request body CancelOrderRequest is now not signed (was: signature in signature; signed as CancelOrder), so existing clients' signatures no longer verify.",
        before: 'signature in signature; signed as CancelOrder',
        after: null,
      },
    ])
    // A body that becomes signed, or a signed schema removed, is not this rule's business.
    expect(
      diffOf(
        (d) =>
          (at(d, '/components/schemas/CancelOrderRequest')['x-eip712-signed'] = {
            signature: 'signature',
            variants: [{ message: 'CancelOrder' }],
          }),
        (d) => delete at(d, '/components/schemas/CancelOrderRequest')['x-eip712-signed'],
      ),
    ).toEqual([])
  })
})
