/**
 * Runs a describe block once per crypto backend: native bindings (when they load here) and the
 * pure-JS fallback, so the fallback is held to the very same assertions.
 */
import { afterAll, beforeAll, describe } from 'vitest'
import { nativeCryptoAvailable, setCryptoBackend, type CryptoBackendName } from '../../src/signing/index.ts'

export function backends(): CryptoBackendName[] {
  if (process.env.OEC_PURE_JS === '1') return ['js']
  return nativeCryptoAvailable() ? ['native', 'js'] : ['js']
}

export function forEachBackend(body: (backend: CryptoBackendName) => void): void {
  for (const b of backends()) {
    describe(`[${b}]`, () => {
      beforeAll(() => {
        setCryptoBackend(b)
      })
      afterAll(() => {
        setCryptoBackend(backends()[0]!)
      })
      body(b)
    })
  }
}
