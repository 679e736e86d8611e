/**
 * The `oec sign --jsonl` protocol in process (test/signing/cli.test.ts drives the binary): one
 * request line in, one answer line out, every refusal with its exact one-line message.
 */
import { parse as losslessParse } from 'lossless-json'
import { describe, expect, it } from 'vitest'
import { addressOf, answerLine, answerRequest, exactDomain, perpActionHash, serializeAnswer, type Hex } from '../../src/signing/index.ts'
import { digestOf, perpDomain, recoverPerpSigner, signing, signPerpAction } from '../helpers/shipped.ts'

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as Hex
const ADDRESS = addressOf(KEY)
const KINDS = 'PlaceOrder, CancelOrder, CancelOrderByClientId, ApproveAgent, RevokeAgent, Agent'

/** JSON text with bigints written as JSON integers. */
function line(req: unknown): string {
  return JSON.stringify(req, (_k, v: unknown) => (typeof v === 'bigint' ? `@@${v}@@` : v)).replace(/"@@(-?\d+)@@"/g, '$1')
}
const ask = async (req: unknown) => JSON.parse((await answerLine(signing, line(req)))!) as Record<string, unknown>
const askText = async (text: string) => JSON.parse((await answerLine(signing, text))!) as Record<string, unknown>
const approve = { op: 'sign', kind: 'ApproveAgent', privateKey: KEY, message: { agent: ADDRESS, nonce: 7n } }
const agent = { action: { type: 'noop' }, nonce: 5n, isMainnet: true }
const errorOf = async (req: unknown) => (await ask(req)).error

describe('answerLine', () => {
  it('blank lines answer nothing; bad JSON and non-objects get one error line', async () => {
    expect(await answerLine(signing, '')).toBeUndefined()
    expect(await answerLine(signing, '  \t')).toBeUndefined()
    expect(await askText('{"id":1,')).toEqual({ error: 'invalid JSON: Quoted object key expected but reached end of input at position 8' })
    expect(await askText('[1,2]')).toEqual({ error: 'a request must be a JSON object, got array' })
    expect(await askText('null')).toEqual({ error: 'a request must be a JSON object, got null' })
    expect(serializeAnswer({ id: 1n as unknown as number, ok: true })).toBe('{"id":1,"ok":true}')
  })

  it('sign: an options kind answers digest, signature and body, with the id first; op defaults to sign', async () => {
    const a = await ask({ id: 'x', ...approve })
    expect(Object.keys(a)).toEqual(['id', 'digest', 'signature', 'body'])
    expect(a.digest).toBe(digestOf('ApproveAgent', { agent: ADDRESS, nonce: 7n }))
    const { op: _op, ...noOp } = approve
    expect(await ask({ id: 'x', ...noOp })).toEqual(a)
    // No id: no id key.
    expect(Object.keys(await ask(approve))).toEqual(['digest', 'signature', 'body'])
    // An integer id keeps every digit.
    const big = losslessParse((await answerLine(signing, line({ id: 12345678901234567890n, ...approve })))!) as Record<string, unknown>
    expect(String(big.id)).toBe('12345678901234567890')
  })

  it('verify: the signer of a good signature; a bad one is a typed failure with the digest', async () => {
    const signed = await ask(approve)
    const ok = await ask({ op: 'verify', kind: 'ApproveAgent', message: approve.message, signature: signed.signature })
    expect(ok).toEqual({ digest: signed.digest, signer: ADDRESS })
    const bad = await ask({ op: 'verify', kind: 'ApproveAgent', message: approve.message, signature: `0x${'11'.repeat(64)}1d` })
    expect(bad).toEqual({ digest: signed.digest, signer: null, reason: 'bad_v', error: 'signature v must be 27 or 28 (or 0/1), got 29' })
    expect(await errorOf({ op: 'verify', kind: 'ApproveAgent', message: approve.message, signature: true })).toBe(
      'signature must be a 0x-hex string, got boolean',
    )
  })

  it('verify honours allowHighS only when it is true', async () => {
    const signed = await ask(approve)
    const sig = signed.signature as string
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
    const s = BigInt(`0x${sig.slice(66, 130)}`)
    const v = parseInt(sig.slice(130), 16)
    const twin = `${sig.slice(0, 66)}${(N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}`
    const req = { op: 'verify', kind: 'ApproveAgent', message: approve.message, signature: twin }
    expect(await ask(req)).toMatchObject({ signer: null, reason: 'high_s' })
    expect(await ask({ ...req, allowHighS: 'yes' })).toMatchObject({ signer: null, reason: 'high_s' })
    expect(await ask({ ...req, allowHighS: true })).toEqual({ digest: signed.digest, signer: ADDRESS })
  })

  it('domain replaces the default whole, field by field checked', async () => {
    const domain = { name: 'Other', version: '2', chainId: 5n, verifyingContract: '0x1111111111111111111111111111111111111111' }
    const a = await ask({ ...approve, domain })
    expect(a.digest).toBe(digestOf('ApproveAgent', approve.message, exactDomain(domain as never)))
    const v = await ask({ op: 'verify', kind: 'ApproveAgent', message: approve.message, signature: a.signature, domain })
    expect(v).toEqual({ digest: a.digest, signer: ADDRESS })
    expect(await errorOf({ ...approve, domain: 'x' })).toBe('domain must be an object, got string')
    expect(await errorOf({ ...approve, domain: { name: true } })).toBe('domain.name must be a string, got boolean')
    expect(await errorOf({ ...approve, domain: { version: null } })).toBe('domain.version must be a string, got null')
    expect(await errorOf({ ...approve, domain: { chainId: '1' } })).toBe('domain.chainId must be a JSON integer, got string')
    expect(await errorOf({ ...approve, domain: { chainId: 1.5 } })).toBe('domain.chainId must be a JSON integer, got 1.5')
    expect(await errorOf({ ...approve, domain: { verifyingContract: false } })).toBe(
      'domain.verifyingContract must be an address string, got boolean',
    )
    expect(await errorOf({ ...approve, domain: { salt: '0x' } })).toBe(
      'domain has no field salt (name, version, chainId, verifyingContract)',
    )
    // A negative chain ID is an integer as far as the protocol goes; the domain then refuses it.
    expect(await errorOf({ ...approve, domain: { chainId: -1n } })).not.toMatch(/JSON integer/)
  })

  it('refuses an unknown op or kind, a missing key, and a bad message, naming each', async () => {
    expect(await errorOf({ ...approve, op: 'mint' })).toBe('unknown op "mint" (sign or verify)')
    expect(await errorOf({ ...approve, kind: 'Nope' })).toBe(`unknown kind "Nope" (one of ${KINDS})`)
    expect(await errorOf({ ...approve, kind: true })).toBe(`unknown kind true (one of ${KINDS})`)
    const { kind: _k, ...noKind } = approve
    expect(await errorOf(noKind)).toBe(`unknown kind (missing) (one of ${KINDS})`)
    const { privateKey: _p, ...noKey } = approve
    expect(await errorOf(noKey)).toBe('privateKey is missing')
    expect(await errorOf({ ...approve, message: [1] })).toBe('message must be an object, got array')
    expect(await errorOf({ ...approve, message: { agent: ADDRESS, nonce: 1.5 } })).toBe(
      'ApproveAgent.nonce must be a JSON integer, got 1.5',
    )
    expect(await errorOf({ ...approve, message: { agent: ADDRESS, nonce: -1n } })).toMatch(/nonce/)
    // The key is checked before the message is signed, and never echoed.
    const badKey = await errorOf({ ...approve, privateKey: KEY.slice(0, 64) })
    expect(badKey).toBe('privateKey must be 32 bytes (64 hex digits), got 31 bytes')
    // A number in a string field stays a number, and the signer refuses it as such.
    expect(
      await errorOf({
        op: 'sign',
        kind: 'CancelOrder',
        privateKey: KEY,
        message: { wallet: ADDRESS, orderId: 12, nonce: 1n },
      }),
    ).toMatch(/orderId must be a string, got number/)
  })

  it('a message field named __proto__ is data, not a prototype', async () => {
    const err = await errorOf({ ...approve, message: JSON.parse(`{"agent":"${ADDRESS}","nonce":1,"__proto__":{"x":1}}`) })
    expect(err).toMatch(/__proto__/)
  })

  it('a failure that is no input error is an internal error on one line', async () => {
    const broken = { ...signing, buildRequest: () => Promise.reject(new Error('boom\nsecond line')) }
    expect(await answerRequest(broken as never, { id: 1, ...approve, message: { agent: ADDRESS, nonce: 1 } })).toEqual({
      id: 1,
      error: 'internal error: boom',
    })
    const thrown = { ...signing, buildRequest: () => Promise.reject('plain') }
    expect(await answerRequest(thrown as never, { ...approve, message: { agent: ADDRESS, nonce: 1 } })).toEqual({
      error: 'internal error: plain',
    })
  })
})

describe('Agent (perp) requests', () => {
  it('sign answers connectionId, digest, signature, r, s, v; verify recovers the key', async () => {
    const msg = { ...agent, vaultAddress: '0x1234567890123456789012345678901234567890', expiresAfter: 99n }
    const a = await ask({ id: 'p', op: 'sign', kind: 'Agent', privateKey: KEY, message: msg })
    expect(Object.keys(a)).toEqual(['id', 'connectionId', 'digest', 'signature', 'r', 's', 'v'])
    const input = { action: agent.action, nonce: 5n, vaultAddress: msg.vaultAddress as Hex, expiresAfter: 99n }
    expect(a.connectionId).toBe(perpActionHash(input))
    const direct = await signPerpAction({ ...input, isMainnet: true }, KEY)
    expect(a.signature).toBe(direct.signature)
    const v = await ask({ op: 'verify', kind: 'Agent', message: msg, signature: a.signature })
    expect(v).toEqual({ digest: a.digest, signer: ADDRESS })
    const parts = await ask({ op: 'verify', kind: 'Agent', message: msg, signature: { r: a.r, s: a.s, v: a.v } })
    expect(parts).toEqual({ digest: a.digest, signer: ADDRESS })
    // Another network is another source: same key, other digest.
    const testnet = await ask({ op: 'sign', kind: 'Agent', privateKey: KEY, message: { ...msg, isMainnet: false } })
    expect(testnet.digest).not.toBe(a.digest)
    expect(testnet.connectionId).toBe(a.connectionId)
  })

  it('integers in an action: safe ones as numbers, big ones as bigints; non-integers refused by msgpack', async () => {
    const big = { type: 'x', n: 9007199254740993n, m: -5n, list: [1n, { deep: 2n }] }
    const a = await ask({ op: 'sign', kind: 'Agent', privateKey: KEY, message: { ...agent, action: big } })
    expect(a.connectionId).toBe(
      perpActionHash({
        action: { type: 'x', n: 9007199254740993n, m: -5, list: [1, { deep: 2 }] },
        nonce: 5n,
        vaultAddress: null,
        expiresAfter: null,
      }),
    )
    const edge = { type: 'x', hi: 9007199254740991n, lo: -9007199254740991n, over: 9007199254740992n }
    const e = await ask({ op: 'sign', kind: 'Agent', privateKey: KEY, message: { ...agent, action: edge } })
    expect(e.connectionId).toBe(
      perpActionHash({
        action: { type: 'x', hi: 9007199254740991, lo: -9007199254740991, over: 9007199254740992n },
        nonce: 5n,
        vaultAddress: null,
        expiresAfter: null,
      }),
    )
    expect(await errorOf({ op: 'sign', kind: 'Agent', privateKey: KEY, message: { ...agent, action: { type: 'x', px: 1.5 } } })).toMatch(
      /action\.px: 1\.5 is not an integer/,
    )
    // "__proto__" in an action is a key like any other.
    const proto = JSON.parse('{"type":"x","__proto__":{"a":1}}')
    const p = await ask({ op: 'sign', kind: 'Agent', privateKey: KEY, message: { ...agent, action: proto } })
    expect(p.connectionId).not.toBe(perpActionHash({ action: { type: 'x' }, nonce: 5n, vaultAddress: null, expiresAfter: null }))
  })

  it('refuses a bad Agent message, naming the field', async () => {
    const sign = (message: unknown) => errorOf({ op: 'sign', kind: 'Agent', privateKey: KEY, message })
    expect(await sign('x')).toBe('message must be an object, got string')
    expect(await sign({ ...agent, extra: 1 })).toBe(
      'Agent message has no field extra (action, nonce, vaultAddress, expiresAfter, isMainnet)',
    )
    const { action: _a, ...noAction } = agent
    expect(await sign(noAction)).toBe('message.action is missing')
    expect(await sign({ ...agent, isMainnet: 'yes' })).toBe('message.isMainnet must be a boolean, got string')
    expect(await sign({ ...agent, vaultAddress: true })).toBe('message.vaultAddress must be an address or null, got boolean')
    expect(await sign({ ...agent, nonce: '5' })).toBe('message.nonce must be a JSON integer, got string')
    expect(await sign({ ...agent, expiresAfter: 1.5 })).toBe('message.expiresAfter must be a JSON integer, got 1.5')
    // null vault and null expiresAfter are absent.
    const withNulls = await ask({
      op: 'sign',
      kind: 'Agent',
      privateKey: KEY,
      message: { ...agent, vaultAddress: null, expiresAfter: null },
    })
    const without = await ask({ op: 'sign', kind: 'Agent', privateKey: KEY, message: agent })
    expect(withNulls.signature).toBe(without.signature)
  })

  it('verify: a malformed string signature is reported by the recoverer; a non-object is refused', async () => {
    const m = await ask({ op: 'verify', kind: 'Agent', message: agent, signature: '0x12' })
    expect(m).toMatchObject({ signer: null, reason: 'malformed_signature' })
    expect(await errorOf({ op: 'verify', kind: 'Agent', message: agent, signature: true })).toBe(
      'signature must be {r, s, v} or 0x-hex, got boolean',
    )
    const a = await ask({ op: 'sign', kind: 'Agent', privateKey: KEY, message: agent })
    const direct = recoverPerpSigner(
      { ...agent, vaultAddress: null, expiresAfter: null },
      { r: a.r as string, s: a.s as string, v: a.v as number },
    )
    expect(direct).toMatchObject({ ok: true, signer: ADDRESS })
    // A domain applies to Agent requests too.
    const other = await ask({ op: 'sign', kind: 'Agent', privateKey: KEY, message: agent, domain: { ...perpDomain(), chainId: 1n } })
    expect(other.digest).not.toBe(a.digest)
  })
})

describe('answerRequest (in process: plain JS values as well as lossless numbers)', () => {
  it('a bigint or a safe JS integer is an integer; no id means no id key', async () => {
    const big = await answerRequest(signing, { ...approve, message: { agent: ADDRESS, nonce: 7n } })
    const num = await answerRequest(signing, { ...approve, message: { agent: ADDRESS, nonce: 7 } })
    expect(Object.keys(big)).toEqual(['digest', 'signature', 'body'])
    expect(num).toEqual(big)
    expect(big.digest).toBe(digestOf('ApproveAgent', { agent: ADDRESS, nonce: 7n }))
    expect(await answerRequest(signing, { ...approve, domain: { chainId: 5 } })).toMatchObject({
      digest: digestOf('ApproveAgent', approve.message, exactDomain({ chainId: 5n })),
    })
    expect(await answerRequest(signing, { ...approve, domain: { chainId: 2 ** 53 } })).toEqual({
      error: 'domain.chainId must be a JSON integer, got number',
    })
    expect(await answerRequest(signing, { op: 'sign', kind: 'Agent', privateKey: KEY, message: { ...agent, nonce: 5 } })).toMatchObject({
      connectionId: perpActionHash({ action: agent.action, nonce: 5n, vaultAddress: null, expiresAfter: null }),
    })
    expect(
      await answerRequest(signing, { op: 'sign', kind: 'Agent', privateKey: KEY, message: { ...agent, nonce: 5n, expiresAfter: 9n } }),
    ).toMatchObject({
      connectionId: perpActionHash({ action: agent.action, nonce: 5n, vaultAddress: null, expiresAfter: 9n }),
    })
    expect(await answerRequest(signing, { ...approve, domain: { chainId: 7n } })).toMatchObject({
      digest: digestOf('ApproveAgent', approve.message, exactDomain({ chainId: 7n })),
    })
  })

  it('PlaceOrder: the route picks the variant; a null route is refused', async () => {
    const order = {
      wallet: ADDRESS,
      symbol: 'BTC-20261231-100000-C',
      side: 'Buy',
      size: '1',
      price: '100',
      tif: 'gtc',
      clientId: 'x',
      nonce: 1n,
    }
    const req = { op: 'sign', kind: 'PlaceOrder', privateKey: KEY }
    expect((await ask({ ...req, message: order })).digest).toBe(digestOf('PlaceOrder', order))
    expect((await ask({ ...req, message: { ...order, route: 'book_only' } })).digest).toBe(
      digestOf('PlaceOrder', { ...order, route: 'book_only' }),
    )
    expect(await errorOf({ ...req, message: { ...order, route: null } })).toBe('PlaceOrder.route must be a string, got null')
  })

  it('a number in a field the message does not have is refused as an unknown field', async () => {
    expect(await errorOf({ ...approve, message: { agent: ADDRESS, nonce: 1n, extra: 5n } })).toBe(
      'ApproveAgent has no field extra (fields: agent, nonce)',
    )
  })

  it('Agent verify passes the domain and allowHighS on', async () => {
    const domain = { ...perpDomain(), chainId: 1n }
    const a = await ask({ op: 'sign', kind: 'Agent', privateKey: KEY, message: agent, domain })
    expect(await ask({ op: 'verify', kind: 'Agent', message: agent, signature: a.signature, domain })).toEqual({
      digest: a.digest,
      signer: ADDRESS,
    })
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
    const twin = { r: a.r, s: `0x${(N - BigInt(a.s as string)).toString(16).padStart(64, '0')}`, v: a.v === 27 ? 28 : 27 }
    const req = { op: 'verify', kind: 'Agent', message: agent, signature: twin, domain }
    expect(await ask(req)).toMatchObject({ signer: null, reason: 'high_s' })
    expect(await ask({ ...req, allowHighS: true })).toEqual({ digest: a.digest, signer: ADDRESS })
  })
})
