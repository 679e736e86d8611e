/** Authentication, signatures and nonces over real HTTP (the seed's stated rules and DECISIONS). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, nonce, placeOrder, post, signed, signedOrder, start, wallet, type Started } from './helpers.ts'

let s: Started
beforeAll(async () => {
  s = await start()
})
afterAll(() => s.close())

const approve = async (owner: { key: `0x${string}` }, agent: string, n = nonce()) =>
  post(s, '/approve-agent', await signed('ApproveAgent', { agent, nonce: n }, owner.key))
const revoke = async (owner: { key: `0x${string}` }, agent: string, n = nonce()) =>
  post(s, '/revoke-agent', await signed('RevokeAgent', { agent, nonce: n }, owner.key))

describe('direct signing', () => {
  it('a correctly signed order is ACKED', async () => {
    const w = wallet()
    const r = await placeOrder(s, w)
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ status: 'ACKED', client_id: 'c1' })
    expect(typeof r.json.order_id).toBe('string')
  })

  // The seed lists "price or size sent as a number" among the causes of this exact message.
  it.each([
    ['price', '100'],
    ['size', '2'],
  ])('%s sent as a JSON number: 401 signature_verification_failed, "Signature verification failed"', async (field, value) => {
    const w = wallet()
    const body = (await signedOrder(w, { [field]: value })).replace(`"${field}":"${value}"`, `"${field}":${value}`)
    const r = await post(s, '/order', body)
    expect(r.status).toBe(401)
    expect(r.json).toEqual({ code: 'signature_verification_failed', message: 'Signature verification failed' })
  })

  it('100.0 signed, 100 sent: signature_verification_failed with its message', async () => {
    const w = wallet()
    const body = (await signedOrder(w, { price: '100.0' })).replace('"price":"100.0"', '"price":"100"')
    const r = await post(s, '/order', body)
    expect(r.status).toBe(401)
    expect(r.json).toEqual({ code: 'signature_verification_failed', message: 'Signature verification failed' })
  })

  it('signed under chainId 1 instead of 999: 401', async () => {
    const w = wallet()
    const r = await post(s, '/order', await signedOrder(w, {}, { chainId: 1 }))
    expect(r.status).toBe(401)
    expect(r.json.code).toBe('signature_verification_failed')
  })

  it('signed under another domain name or version: 401', async () => {
    const w = wallet()
    expect((await post(s, '/order', await signedOrder(w, {}, { name: 'Other' }))).status).toBe(401)
    expect((await post(s, '/order', await signedOrder(w, {}, { version: '2' }))).status).toBe(401)
  })

  it('a configured domain name and chain ID are what the server verifies under', async () => {
    const t = await start({ domainName: 'Acme', chainId: 4242 })
    try {
      const w = wallet()
      expect((await post(t, '/order', await signedOrder(w, {}, { name: 'Acme', chainId: 4242 }))).json.status).toBe('ACKED')
      expect((await post(t, '/order', await signedOrder(w))).status).toBe(401)
    } finally {
      await t.close()
    }
  })

  it('client_id is covered by the signature', async () => {
    const w = wallet()
    const body = (await signedOrder(w, { clientId: 'mine' })).replace('"client_id":"mine"', '"client_id":"yours"')
    expect((await post(s, '/order', body)).status).toBe(401)
  })

  it('an empty client_id is valid', async () => {
    const w = wallet()
    expect((await placeOrder(s, w, { clientId: '' })).json.status).toBe('ACKED')
  })

  it('a signature that is not 0x + 130 hex: 400 invalid_field naming signature', async () => {
    const w = wallet()
    const body = (await signedOrder(w)).replace(/"signature":"0x[0-9a-f]+"/, '"signature":"0x1234"')
    const r = await post(s, '/order', body)
    expect(r.status).toBe(400)
    expect(r.json.message).toContain('"signature"')
  })

  it('v as 0/1 is accepted; high-s (malleable) is refused', async () => {
    const w = wallet()
    const body = await signedOrder(w)
    const sig = /"signature":"(0x[0-9a-f]{130})"/.exec(body)![1]!
    const v = parseInt(sig.slice(130), 16)
    const low = body.replace(sig, sig.slice(0, 130) + (v - 27).toString(16).padStart(2, '0'))
    expect((await post(s, '/order', low)).json.status).toBe('ACKED')

    const w2 = wallet()
    const body2 = await signedOrder(w2)
    const sig2 = /"signature":"(0x[0-9a-f]{130})"/.exec(body2)![1]!
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
    const sv = BigInt('0x' + sig2.slice(66, 130))
    const v2 = parseInt(sig2.slice(130), 16)
    const high = sig2.slice(0, 66) + (N - sv).toString(16).padStart(64, '0') + (v2 === 27 ? 28 : 27).toString(16)
    const r = await post(s, '/order', body2.replace(sig2, high))
    expect(r.status).toBe(401)
    expect(r.json.code).toBe('signature_verification_failed')
  })
})

describe('agents', () => {
  it('approve → agent order ACKED → revoke → agent order refused with 403 unauthorized', async () => {
    const owner = wallet()
    const agent = wallet()
    const a = await approve(owner, agent.address)
    expect(a.status).toBe(200)
    expect(a.json).toEqual({ wallet: owner.address, agent: agent.address, status: 'approved' })
    const list = await call(s, 'GET', `/authorized-agents?wallet=${owner.address}`)
    expect(list.json.agents.map((x: { agent: string }) => x.agent)).toEqual([agent.address])
    expect(Number.isNaN(Date.parse(list.json.agents[0].approved_at))).toBe(false)

    const viaAgent = await post(s, '/order', await signedOrder(owner, {}, {}, agent.key))
    expect(viaAgent.json.status).toBe('ACKED')
    expect((await revoke(owner, agent.address)).json.status).toBe('revoked')
    const after = await post(s, '/order', await signedOrder(owner, {}, {}, agent.key))
    expect(after.status).toBe(403)
    expect(after.json).toEqual({ code: 'unauthorized', message: 'Unauthorized: signer not authorized for wallet' })
    expect((await call(s, 'GET', `/authorized-agents?wallet=${owner.address}`)).json.agents).toEqual([])
  })

  it('a non-approved agent: an unknown signer gets 401, a known one 403', async () => {
    const owner = wallet()
    const stranger = wallet()
    const r = await post(s, '/order', await signedOrder(owner, {}, {}, stranger.key))
    expect(r.status).toBe(401)
    expect(r.json.message).toBe('Signature verification failed')
    await placeOrder(s, stranger) // now it has state
    const r2 = await post(s, '/order', await signedOrder(owner, {}, {}, stranger.key))
    expect(r2.status).toBe(403)
    expect(r2.json.message).toBe('Unauthorized: signer not authorized for wallet')
  })

  it('an agent approving a sub-agent approves it for itself, never for its owner', async () => {
    const owner = wallet()
    const agent = wallet()
    const sub = wallet()
    await approve(owner, agent.address)
    const r = await approve(agent, sub.address)
    expect(r.json).toMatchObject({ wallet: agent.address, agent: sub.address })
    expect((await call(s, 'GET', `/authorized-agents?wallet=${owner.address}`)).json.agents).toHaveLength(1)
    expect((await post(s, '/order', await signedOrder(owner, {}, {}, sub.key))).status).toBe(403)
  })

  it('approving yourself: 400 invalid_field; revoking a non-approved agent: 404 not_found', async () => {
    const owner = wallet()
    const r = await approve(owner, owner.address)
    expect(r.status).toBe(400)
    expect(r.json.code).toBe('invalid_field')
    const r2 = await revoke(owner, wallet().address)
    expect(r2.status).toBe(404)
    expect(r2.json.code).toBe('not_found')
  })

  it('an agent revoking itself for its owner: 404 (it acts only for itself, where it is not approved)', async () => {
    const owner = wallet()
    const agent = wallet()
    await approve(owner, agent.address)
    const r = await revoke(agent, agent.address)
    expect(r.status).toBe(404)
    expect((await call(s, 'GET', `/authorized-agents?wallet=${owner.address}`)).json.agents).toHaveLength(1)
  })

  it('an agent cannot revoke its owner’s agents', async () => {
    const owner = wallet()
    const a1 = wallet()
    const a2 = wallet()
    await approve(owner, a1.address)
    await approve(owner, a2.address)
    const r = await revoke(a1, a2.address)
    expect(r.status).toBe(404)
    expect((await call(s, 'GET', `/authorized-agents?wallet=${owner.address}`)).json.agents).toHaveLength(2)
  })

  it('the approve-agent body has no wallet: a wallet field is refused as unknown', async () => {
    const owner = wallet()
    const body = (await signed('ApproveAgent', { agent: wallet().address, nonce: nonce() }, owner.key)).replace(
      '{',
      `{"wallet":"${owner.address}",`,
    )
    const r = await post(s, '/approve-agent', body)
    expect(r.status).toBe(400)
    expect(r.json.message).toContain('"wallet"')
  })
})

describe('nonces', () => {
  it('reuse after success: 409 nonce_reused, across operations of the wallet', async () => {
    const w = wallet()
    const n = nonce()
    expect((await placeOrder(s, w, { nonce: n })).json.status).toBe('ACKED')
    const again = await placeOrder(s, w, { nonce: n, clientId: 'other' })
    expect(again.status).toBe(409)
    expect(again.json.code).toBe('nonce_reused')
    const approveSame = await approve(w, wallet().address, n)
    expect(approveSame.status).toBe(409)
  })

  it('a failed request may be retried with the same nonce (bad signature, REJECTED)', async () => {
    const w = wallet()
    const n = nonce()
    expect((await post(s, '/order', await signedOrder(w, { nonce: n }, { chainId: 1 }))).status).toBe(401)
    const rejected = await placeOrder(s, w, { nonce: n, symbol: 'BTC-20261225-1-C' })
    expect(rejected.json.status).toBe('REJECTED')
    expect((await placeOrder(s, w, { nonce: n })).json.status).toBe('ACKED')
  })

  it('gaps and decreasing nonces are allowed', async () => {
    const w = wallet()
    for (const n of [1000n, 5n, 999_999n, 6n]) expect((await placeOrder(s, w, { nonce: n })).json.status).toBe('ACKED')
  })

  it('2^64-1 and 2^53+1 survive exactly (2^53 and 2^53+1 are different nonces)', async () => {
    const w = wallet()
    for (const n of [2n ** 64n - 1n, 2n ** 53n, 2n ** 53n + 1n]) expect((await placeOrder(s, w, { nonce: n })).json.status).toBe('ACKED')
    expect((await placeOrder(s, w, { nonce: 2n ** 53n + 1n })).status).toBe(409)
  })

  it.each([
    ['a string', '"7"'],
    ['negative', '-1'],
    ['fractional', '1.5'],
    ['exponent form', '1e3'],
    ['above 2^64-1', '18446744073709551616'],
  ])('a nonce that is %s: 400 invalid_field naming nonce', async (_what, text) => {
    const w = wallet()
    const body = (await signedOrder(w, { nonce: 77n })).replace('"nonce":77', `"nonce":${text}`)
    const r = await post(s, '/order', body)
    expect(r.status).toBe(400)
    expect(r.json.code).toBe('invalid_field')
    expect(r.json.message).toContain('nonce')
  })
})

describe('route', () => {
  it('omitted: signed without route, treated as best_execution, Deprecation and Sunset headers', async () => {
    const w = wallet()
    const r = await post(s, '/order', await signedOrder(w, { route: undefined }))
    expect(r.json.status).toBe('ACKED')
    expect(r.headers.get('deprecation')).toBe('true')
    expect(r.headers.get('sunset')).toBe('Sat, 04 Jul 2026 00:00:00 GMT')
    const orders = await call(s, 'GET', `/orders?wallet=${w.address}`)
    expect(orders.json.orders[0].route).toBe('best_execution')
  })

  it('a route-less body signed with route (9-field struct) does not verify', async () => {
    const w = wallet()
    const body = (await signedOrder(w, { route: 'best_execution' })).replace('"route":"best_execution",', '')
    expect((await post(s, '/order', body)).status).toBe(401)
  })

  it('present: no deprecation header', async () => {
    const r = await placeOrder(s, wallet())
    expect(r.headers.get('deprecation')).toBeNull()
  })

  it('route: null is invalid_field; routeRequired refuses an omitted route', async () => {
    const w = wallet()
    const body = (await signedOrder(w)).replace('"route":"best_execution"', '"route":null')
    expect((await post(s, '/order', body)).json.code).toBe('invalid_field')
    const t = await start({ routeRequired: true })
    try {
      const r = await post(t, '/order', await signedOrder(w, { route: undefined }))
      expect(r.status).toBe(400)
      expect(r.json.message).toContain('route')
      expect((await post(t, '/order', await signedOrder(w))).json.status).toBe('ACKED')
    } finally {
      await t.close()
    }
  })
})
