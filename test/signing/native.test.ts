/**
 * The [native] signing suites run only when the native bindings load. A machine where they do
 * not would silently test the pure-JS path alone: under CI that is a failure, elsewhere a
 * skip that says so.
 */
import { expect, it } from 'vitest'
import { nativeCryptoAvailable } from '../../src/signing/index.ts'

it('the native keccak and secp256k1 bindings load, so the [native] suites run', (ctx) => {
  if (process.env.OEC_PURE_JS === '1') return ctx.skip('OEC_PURE_JS=1 asks for the pure-JS backend alone')
  if (!nativeCryptoAvailable() && !process.env.CI) return ctx.skip('native bindings did not load here: only the [js] suites ran')
  expect(nativeCryptoAvailable()).toBe(true)
})
