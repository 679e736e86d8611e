/**
 * The signing core of one contract: its options messages and its perp Agent message, compiled
 * on first use and cached on the contract value (a WeakMap, so a contract that goes away takes
 * its caches with it).
 */
import type { Contract } from '../contract/load.ts'
import { onCryptoBackendChange } from './crypto.ts'
import { createOptionsSigning, type OptionsSigning } from './options.ts'
import { createPerpSigning, type PerpSigning } from './perp.ts'

export type Signing = OptionsSigning & PerpSigning

let byContract = new WeakMap<object, Signing>()
// Type hashes and separators were computed by the old backend; the next use recomputes them.
onCryptoBackendChange(() => {
  byContract = new WeakMap()
})

/** The signing core for `contract` (the same object for the same contract). */
export function signingFor(contract: Contract<'typedData'>): Signing {
  let s = byContract.get(contract)
  if (!s) {
    const options = createOptionsSigning(contract)
    s = { ...options, ...createPerpSigning(options) }
    byContract.set(contract, s)
  }
  return s
}
