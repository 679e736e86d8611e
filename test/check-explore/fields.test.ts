/**
 * The stated body fields of an answer (fields.ts), read from the shipped spec's response schemas:
 * an echo held to what each side was sent, closed values compared, free text, issued ids and
 * timestamps left out, and the level a field's way through the spec gives it. Pure: no process.
 */
import { describe, expect, it } from 'vitest'
import { shippedContract } from '../../src/contract/index.ts'
import { fieldDifferences, type Sent } from '../../src/check/explore/fields.ts'

const spec = shippedContract()
const at = (method: string, path: string, body: unknown): Sent => ({ method, path, body })
const order = (clientId: string) => at('POST', '/order', { wallet: '0xab', symbol: 'S', client_id: clientId, nonce: 1 })

describe('fieldDifferences', () => {
  it('holds an echoed client_id to what each side was sent (a stated field)', () => {
    const t = { json: { status: 'ACKED', order_id: '77', client_id: 'c1-x' }, sent: order('c1') }
    const o = { json: { status: 'ACKED', order_id: '3', client_id: 'c1' }, sent: order('c1') }
    expect(fieldDifferences(spec, 200, t, o)).toEqual([{ at: 'client_id', target: 'c1-x', oracle: 'c1', echo: true, assumed: false }])
    // The issued order_id and the free-text reason differ freely; the echo is right.
    expect(fieldDifferences(spec, 200, { ...t, json: { ...t.json, client_id: 'c1', reason: 'x' } }, o)).toEqual([])
  })

  it('compares a closed value raw and an address as 20 bytes; the agent answer is assumed', () => {
    const sent = at('POST', '/approve-agent', { agent: '0xAA', nonce: 1 })
    const o = { json: { wallet: '0x00000000000000000000000000000000000000Ab', agent: '0xAA', status: 'approved' }, sent }
    const lower = { json: { ...o.json, wallet: o.json.wallet.toLowerCase() }, sent }
    expect(fieldDifferences(spec, 200, lower, o)).toEqual([])
    const revoked = { json: { ...o.json, status: 'revoked' }, sent }
    expect(fieldDifferences(spec, 200, revoked, o)).toEqual([{ at: 'status', target: 'revoked', oracle: 'approved', assumed: true }])
  })

  it('pairs the items of a batch answer with the items each side sent', () => {
    const sent = (a: string, b: string) => at('POST', '/bulk_order', { orders: [{ client_id: a }, { client_id: b }] })
    const t = {
      json: {
        results: [
          { status: 'ACKED', client_id: 'a' },
          { status: 'ACKED', client_id: 'a' },
        ],
      },
      sent: sent('a', 'b'),
    }
    const o = {
      json: {
        results: [
          { status: 'ACKED', client_id: 'a' },
          { status: 'ACKED', client_id: 'b' },
        ],
      },
      sent: sent('a', 'b'),
    }
    expect(fieldDifferences(spec, 200, t, o).map((d) => d.at)).toEqual(['results[1].client_id'])
  })

  it('states nothing for a status the operation does not answer with a JSON body', () => {
    expect(fieldDifferences(spec, 299, { json: { a: 1 }, sent: order('c') }, { json: { a: 2 }, sent: order('c') })).toEqual([])
  })
})
