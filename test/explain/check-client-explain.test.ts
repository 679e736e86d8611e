/** `oec check client` failure messages say why a testee's signature differs (the explain engine). */
import { describe, expect, it } from 'vitest'
import { runClientCheck } from '../../src/check/client/index.ts'

const testee = (name: string) => ['node', '--import', 'tsx', `test/check-client/testees/${name}.mts`]

describe('check client + explain', () => {
  it('a testee that signs chainId 1: the failure names the cause and the fix', { timeout: 90_000 }, async () => {
    const r = await runClientCheck({ command: testee('chain-id-1'), only: ['place-order-valid/1'], timeoutMs: 5000 })
    const f = r.summary.results.find((x) => x.id === 'place-order-valid/1')!
    expect(f.outcome).toBe('fail')
    expect(f.message).toMatch(/^sign: digest .*; explain: chain_id: you signed chainId 1; the service signs 999$/)
  })
})
