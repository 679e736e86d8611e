/**
 * Authentication in isolation, over a stand-in server context: which refusal (401 or 403), which
 * owner, and the --explain diagnosis (the HTTP tests in auth.test.ts cover the wiring).
 */
import { describe, expect, it } from 'vitest'
import { authenticate, authorizedFor, refusal } from '../../src/server/auth.ts'
import type { ServerContext } from '../../src/server/context.ts'
import { createAgentStore } from '../../src/server/stores.ts'
import { parseBody, type ParsedBodyOk } from '../../src/signing/index.ts'

const WALLET = '0xAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAa'
const AGENT = '0xBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBbBb'
const STRANGER = '0xCcCcCcCcCcCcCcCcCcCcCcCcCcCcCcCcCcCcCcCc'

interface Fake {
  signer?: string | null
  known?: string[]
  explain?: boolean
  badMessage?: unknown
}

function fakeContext(f: Fake = {}) {
  const agents = createAgentStore()
  agents.approve(WALLET, AGENT, 1)
  const verifyCalls: unknown[][] = []
  const explainCalls: { wallet: string; authorized: boolean[]; known: boolean[] }[] = []
  const ctx = {
    config: { domainName: 'Configured', chainId: 4242 },
    catalog: {
      reply: (code: string, message: string) => ({ status: code === 'unauthorized' ? 403 : 401, headers: {}, body: { code, message } }),
    },
    known: (a: string) => (f.known ?? []).some((k) => k.toLowerCase() === a.toLowerCase()),
    signing: {
      messageFromBody: () => {
        if (f.badMessage !== undefined) throw f.badMessage
        return { wallet: WALLET, nonce: 1n }
      },
    },
    deps: {
      agents,
      verifyOptions: (...args: unknown[]) => {
        verifyCalls.push(args)
        return f.signer === null
          ? { ok: false, reason: 'unrecoverable', message: 'no' }
          : { ok: true, signer: f.signer ?? WALLET, digest: '0x00' }
      },
      explainRefusal: f.explain
        ? (_body: unknown, wallet: string, probe: { authorized(a: string): boolean; known(a: string): boolean }) => {
            explainCalls.push({
              wallet,
              authorized: [WALLET, AGENT, STRANGER].map((a) => probe.authorized(a)),
              known: [WALLET, STRANGER].map((a) => probe.known(a)),
            })
            return { causes: ['why'] }
          }
        : undefined,
    },
  }
  return { ctx: ctx as unknown as ServerContext, verifyCalls, explainCalls }
}

const body = (): ParsedBodyOk => {
  const r = parseBody(`{"wallet":"${WALLET}","nonce":1,"signature":"0xsig"}`)
  if (!r.ok) throw new Error(r.message)
  return r
}

describe('authorizedFor', () => {
  it('the wallet itself in any letter case, or an approved agent; nobody else', () => {
    const { ctx } = fakeContext()
    expect(authorizedFor(ctx, WALLET.toLowerCase(), WALLET)).toBe(true)
    expect(authorizedFor(ctx, WALLET, WALLET.toUpperCase().replace('0X', '0x'))).toBe(true)
    expect(authorizedFor(ctx, AGENT, WALLET)).toBe(true)
    expect(authorizedFor(ctx, STRANGER, WALLET)).toBe(false)
    expect(authorizedFor(ctx, WALLET, AGENT)).toBe(false)
  })
})

describe('refusal', () => {
  it('403 unauthorized for a signer the server knows; 401 otherwise, with the catalog messages', () => {
    const { ctx } = fakeContext({ known: [STRANGER] })
    expect(refusal(ctx, STRANGER)).toEqual({
      ok: false,
      code: 'unauthorized',
      reply: { status: 403, headers: {}, body: { code: 'unauthorized', message: 'Unauthorized: signer not authorized for wallet' } },
    })
    const unknown = {
      ok: false,
      code: 'signature_verification_failed',
      reply: { status: 401, headers: {}, body: { code: 'signature_verification_failed', message: 'Signature verification failed' } },
    }
    expect(refusal(ctx, AGENT)).toEqual(unknown)
    expect(refusal(ctx, null)).toEqual(unknown)
  })
})

describe('authenticate', () => {
  it('verifies under the configured domain name and chain ID, with the body signature as a string', () => {
    const { ctx, verifyCalls } = fakeContext()
    expect(authenticate(ctx, 'CancelOrder', body(), WALLET)).toEqual({ ok: true, signer: WALLET, owner: WALLET })
    expect(verifyCalls).toEqual([
      ['CancelOrder', { wallet: WALLET, nonce: 1n }, '0xsig', { domain: { name: 'Configured', chainId: 4242 } }],
    ])
  })

  it('an approved agent acts for the wallet; with no wallet the signer owns itself', () => {
    expect(authenticate(fakeContext({ signer: AGENT }).ctx, 'CancelOrder', body(), WALLET)).toEqual({
      ok: true,
      signer: AGENT,
      owner: WALLET,
    })
    expect(authenticate(fakeContext({ signer: STRANGER }).ctx, 'ApproveAgent', body(), null)).toEqual({
      ok: true,
      signer: STRANGER,
      owner: STRANGER,
    })
  })

  it('a signature that does not recover is 401 even when the wallet is known', () => {
    const r = authenticate(fakeContext({ signer: null, known: [WALLET] }).ctx, 'CancelOrder', body(), WALLET)
    expect(r).toMatchObject({ ok: false, code: 'signature_verification_failed' })
  })

  it('a stranger: 401 when unknown, 403 when known', () => {
    expect(authenticate(fakeContext({ signer: STRANGER }).ctx, 'CancelOrder', body(), WALLET)).toMatchObject({
      ok: false,
      code: 'signature_verification_failed',
    })
    expect(authenticate(fakeContext({ signer: STRANGER, known: [STRANGER] }).ctx, 'CancelOrder', body(), WALLET)).toMatchObject({
      ok: false,
      code: 'unauthorized',
    })
  })

  it('a message that cannot be built is invalid_field with the reason', () => {
    expect(authenticate(fakeContext({ badMessage: new Error('price must be a string') }).ctx, 'PlaceOrder', body(), WALLET)).toEqual({
      ok: false,
      code: 'invalid_field',
      reply: { status: 401, headers: {}, body: { code: 'invalid_field', message: 'invalid field: price must be a string' } },
    })
    expect(authenticate(fakeContext({ badMessage: 'plain' }).ctx, 'PlaceOrder', body(), WALLET)).toMatchObject({
      reply: { body: { message: 'invalid field: plain' } },
    })
  })

  it('with --explain a refusal body says why, probing authorization against the wallet; agent operations are not explained', () => {
    const { ctx, explainCalls } = fakeContext({ signer: STRANGER, known: [WALLET], explain: true })
    const r = authenticate(ctx, 'CancelOrder', body(), WALLET)
    expect(r).toEqual({
      ok: false,
      code: 'signature_verification_failed',
      reply: {
        status: 401,
        headers: {},
        body: { code: 'signature_verification_failed', message: 'Signature verification failed', explain: { causes: ['why'] } },
      },
    })
    expect(explainCalls).toEqual([{ wallet: WALLET, authorized: [true, true, false], known: [true, false] }])
    // A signature that does not recover is explained too.
    const bad = fakeContext({ signer: null, explain: true })
    expect(authenticate(bad.ctx, 'CancelOrder', body(), WALLET)).toMatchObject({ reply: { body: { explain: { causes: ['why'] } } } })
    // No wallet (agent operations): no diagnosis.
    const agentOp = fakeContext({ signer: null, explain: true })
    const plain = authenticate(agentOp.ctx, 'ApproveAgent', body(), null)
    expect(plain).toMatchObject({ ok: false, reply: { body: { message: 'Signature verification failed' } } })
    expect((plain as { reply: { body: object } }).reply.body).not.toHaveProperty('explain')
    expect(agentOp.explainCalls).toEqual([])
    // Accepted requests are never explained.
    const ok = fakeContext({ explain: true })
    expect(authenticate(ok.ctx, 'CancelOrder', body(), WALLET)).toMatchObject({ ok: true })
    expect(ok.explainCalls).toEqual([])
  })
})
