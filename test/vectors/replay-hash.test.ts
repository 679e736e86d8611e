/**
 * The vector replay hashes typed data with ox at run time (re-signed cases: new wallets, the
 * target's domain, the target's symbols). viem, which built the checked-in files, must agree on
 * every shipped case's typed data with its addresses, strings, integers and domain redrawn.
 */
import fc from 'fast-check'
import { hashTypedData, type TypedDataDefinition } from 'viem'
import { describe, expect, it } from 'vitest'
import { addressOf, digestTyped } from '../../src/vectors/build.ts'
import { loadVectorFiles } from '../../src/vectors/load.ts'
import type { TypedDataJson } from '../../src/vectors/model.ts'
import { propertyRuns } from '../helpers/mutation.ts'

const shipped: TypedDataJson[] = loadVectorFiles().flatMap((f) =>
  f.file.testGroups.flatMap((g) => g.tests.flatMap((t) => (t.typedData ? [t.typedData] : []))),
)

/** viem's form of the JSON typed data: integers as bigints, addresses lower-cased. */
function viemDigest(td: TypedDataJson): string {
  const convert = (type: string, value: unknown): unknown => {
    const fields = td.types[type]
    if (!fields || value === null || typeof value !== 'object') return value
    return Object.fromEntries(
      fields.map((f) => {
        const v = (value as Record<string, unknown>)[f.name]
        if (f.type === 'address' && typeof v === 'string') return [f.name, v.toLowerCase()]
        if (/^u?int\d*$/.test(f.type) && typeof v === 'string') return [f.name, BigInt(v)]
        return [f.name, td.types[f.type] ? convert(f.type, v) : v]
      }),
    )
  }
  return hashTypedData({
    domain: convert('EIP712Domain', td.domain),
    types: td.types,
    primaryType: td.primaryType,
    message: convert(td.primaryType, td.message),
  } as unknown as TypedDataDefinition)
}

/** The case's typed data with every value of a redrawable type replaced, as a replay does. */
function redrawn(td: TypedDataJson, pick: (type: string, old: unknown) => unknown): TypedDataJson {
  const redraw = (type: string, value: unknown): unknown => {
    const fields = td.types[type]
    if (!fields || value === null || typeof value !== 'object') return value
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) }
    for (const f of fields) if (f.name in out) out[f.name] = td.types[f.type] ? redraw(f.type, out[f.name]) : pick(f.type, out[f.name])
    return out
  }
  return {
    ...td,
    domain: redraw('EIP712Domain', td.domain) as TypedDataJson['domain'],
    message: redraw(td.primaryType, td.message) as TypedDataJson['message'],
  }
}

describe('replay hashing (ox) against viem', () => {
  it('agrees on every shipped case as written', () => {
    expect(shipped.length).toBeGreaterThan(300)
    for (const td of shipped) expect(digestTyped(td)).toBe(viemDigest(td))
  })

  it('agrees on shipped cases with addresses, strings, integers and chain IDs redrawn', () => {
    const key = fc.bigInt({ min: 1n, max: 2n ** 200n }).map((k) => `0x${k.toString(16).padStart(64, '0')}` as const)
    fc.assert(
      fc.property(
        fc.nat(shipped.length - 1),
        key,
        fc.string({ unit: 'grapheme', maxLength: 12 }),
        fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }),
        (i, k, s, n) => {
          const address = addressOf(k)
          const td = redrawn(shipped[i]!, (type, old) => {
            if (type === 'address') return typeof old === 'string' && old === old.toLowerCase() ? address.toLowerCase() : address
            if (type === 'string') return s
            if (/^uint(64|256)$/.test(type)) return typeof old === 'number' ? Number(n % 1_000_000n) : n.toString()
            return old
          })
          expect(digestTyped(td)).toBe(viemDigest(td))
        },
      ),
      { numRuns: propertyRuns(150), seed: 20261123 },
    )
  })
})
