/** `oec serve --explain`: refusals carry the diagnosis; without the switch they do not. */
import { afterAll, describe, expect, it } from 'vitest'
import { shippedContract } from '../../src/contract/load.ts'
import { refusalExplainer } from '../../src/explain/index.ts'
import { startServer, type RunningServer } from '../../src/server/index.ts'
import { startServe } from '../helpers/cli.ts'
import { MISTAKES, placeOrder } from './independent.ts'

const post = (url: string, body: string) => fetch(`${url}/order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
const chain1 = MISTAKES.find((m) => m.name === 'chainId 1')!

describe('serve --explain', () => {
  const servers: RunningServer[] = []
  afterAll(async () => {
    for (const s of servers) await s.close()
  })

  it('adds explain to a signature refusal, and only when switched on', async () => {
    const on = await startServer({ deps: { explainRefusal: refusalExplainer(shippedContract()) } })
    const off = await startServer()
    servers.push(on, off)
    const body = await placeOrder([chain1])
    const a = await post(on.url, body)
    expect(a.status).toBe(401)
    const json = (await a.json()) as { code: string; explain: { causes: { id: string; text: string }[] } }
    expect(json.code).toBe('signature_verification_failed')
    expect(json.explain.causes.map((c) => c.id)).toEqual(['chain_id'])
    expect(json.explain.causes[0]!.text).toBe('you signed chainId 1; the service signs 999')
    const b = await post(off.url, body)
    expect(b.status).toBe(401)
    expect(await b.json()).not.toHaveProperty('explain')
    // An accepted order is untouched.
    const ok = await post(on.url, await placeOrder())
    expect(ok.status).toBe(200)
    expect(await ok.json()).not.toHaveProperty('explain')
  })

  it('oec serve --explain as a process', { timeout: 60_000 }, async () => {
    const { child, ready } = startServe(['--port', '0', '--explain'])
    try {
      const s = await ready
      const r = await post(s.url, await placeOrder([chain1]))
      expect(((await r.json()) as { explain: { causes: { id: string }[] } }).explain.causes.map((c) => c.id)).toEqual(['chain_id'])
    } finally {
      child.kill('SIGTERM')
    }
  })
})
