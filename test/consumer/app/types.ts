// Type-checked under both resolutions: every public subpath resolves to the shipped .d.ts files.
import { loadContract, signingFor, startServer, type RunningServer } from 'order-entry-conformance'
import { runServerChecks, runClientCheck } from 'order-entry-conformance/check'
import { DEFAULT_SPEC_PATH, requireLayers, type Contract } from 'order-entry-conformance/contract'
import { diffSpecs } from 'order-entry-conformance/diff'
import { generateFiles } from 'order-entry-conformance/generate'
import { lintFile } from 'order-entry-conformance/lint'
import { startServer as startFromSubpath } from 'order-entry-conformance/server'
import { addressOf, type Hex } from 'order-entry-conformance/signing'
import { DEFAULT_VECTORS_DIR } from 'order-entry-conformance/vectors'
import order from './order.json' with { type: 'json' }

// A loaded spec may lack the signing layer; the types make the caller ask for it before signing.
const contract: Contract<'typedData'> = requireLayers(loadContract(DEFAULT_SPEC_PATH), ['typedData'], 'signing')
const key: Hex = `0x${'11'.repeat(32)}`
const signing = signingFor(contract)

export async function roundTrip(): Promise<boolean> {
  const message = { ...order, wallet: addressOf(key), nonce: 1n }
  const { signature } = await signing.buildRequest('PlaceOrder', message, key)
  return signing.verifyOptions('PlaceOrder', message, signature).ok
}

export async function serve(): Promise<RunningServer> {
  const s = await startServer({ port: 0 })
  return s.port > 0 ? s : startFromSubpath({ port: 0 })
}

// @ts-expect-error: a wrong argument type must be an error, or the check above proves nothing.
signingFor('not a contract')

export const used = [runServerChecks, runClientCheck, diffSpecs, generateFiles, lintFile, DEFAULT_VECTORS_DIR]
