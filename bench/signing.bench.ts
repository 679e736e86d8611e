/**
 * Signing benchmarks: typed-data digest of PlaceOrder and recover-and-authorize, this project
 * against viem, ethers and the physical floor (libsecp256k1 recover + keccak alone on
 * precomputed digests), measured in one run on the same messages. `npm run bench -- signing`
 *
 * Two workloads:
 *  - cold: random messages (any Unicode, empty strings, boundary nonces), string-hash memo off,
 *    so every field is hashed every time;
 *  - order flow: 20 instruments, the spec's sides/tifs/routes, a few hundred sizes and prices,
 *    a fresh client id and nonce per order, memo on (the default). No message is measured twice.
 */
import { createRequire } from 'node:module'
import { TypedDataEncoder, verifyTypedData as ethersVerifyTypedData, type TypedDataDomain } from 'ethers'
import fc from 'fast-check'
import { hashTypedData, recoverTypedDataAddress, type TypedDataDefinition } from 'viem'
import {
  addressOf,
  cryptoBackend,
  keccak256Bytes,
  nativeCryptoAvailable,
  setCryptoBackend,
  setStringHashCache,
  type Hex,
  type OptionsMessage,
} from '../src/signing/index.ts'
import { digestOf, signOptions, typedDataFor, verifyOptions } from '../test/helpers/shipped.ts'
import { keyArb, messageArb } from '../test/signing/arbitraries.ts'
import type { BenchRow, BenchSection } from './types.ts'
import { median } from './measure.ts'

const require = createRequire(import.meta.url)
const BUDGET_MS = Number(process.env.OEC_BENCH_MS ?? 1500)
const WARM = 200

type Typed = TypedDataDefinition & {
  // ethers' domain type too: typedDataFor gives every field a value, never undefined.
  domain: TypedDataDomain & Record<string, unknown>
  types: Record<string, { name: string; type: string }[]>
  message: Record<string, unknown>
}

interface Contender {
  pool: number
  fn: (i: number) => unknown
  /** Share of the budget (slow peers need fewer samples). */
  share?: number
}

/**
 * Operations per second of each contender, measured in interleaved rounds (so load drifts on a
 * shared machine hit every contender alike) and reported as the median round. Items are taken
 * once each, in order, after a warm-up on the first WARM: a memo never sees a measured message twice.
 */
async function compare(contenders: Contender[], rounds = 5): Promise<number[]> {
  const next = contenders.map(() => WARM)
  for (const c of contenders) for (let i = 0; i < WARM; i++) await c.fn(i)
  const samples: number[][] = contenders.map(() => [])
  for (let r = 0; r < rounds; r++) {
    for (const [k, c] of contenders.entries()) {
      const budget = (BUDGET_MS * (c.share ?? 1)) / rounds
      let n = next[k]!
      const first = n
      const start = performance.now()
      let now = start
      while (now - start < budget && n < c.pool) {
        const end = Math.min(n + 16, c.pool)
        for (; n < end; n++) {
          const res = c.fn(n)
          if (res instanceof Promise) await res
        }
        now = performance.now()
      }
      next[k] = n
      if (n > first) samples[k]!.push(((n - first) * 1000) / (now - start))
    }
  }
  return samples.map(median)
}

const fmt = (ops: number) => `${Math.round(ops).toLocaleString('en-US')} ops/s`
const x = (a: number, b: number) => `${(a / b).toFixed(1)}×`

/** A realistic PlaceOrder stream; wallets are the signers' addresses. */
function orderFlow(count: number, wallets: readonly Hex[]): OptionsMessage[] {
  const symbols = Array.from(
    { length: 20 },
    (_, i) =>
      `${['BTC', 'ETH', 'SOL', 'HYPE'][i % 4]}-2026${String(1 + (i % 12)).padStart(2, '0')}28-${1000 * (i + 1)}-${i % 2 ? 'P' : 'C'}`,
  )
  const sizes = Array.from({ length: 100 }, (_, i) => `${(i + 1) / 10}`)
  const prices = Array.from({ length: 300 }, (_, i) => `${(i * 7 + 3) / 4}`)
  const sides = ['Buy', 'Sell']
  const tifs = ['gtc', 'ioc', 'fok']
  const routes = ['best_execution', 'book_only', 'rfq_only', undefined]
  let seed = 12345
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed % n
  }
  return Array.from({ length: count }, (_, i) => {
    const route = routes[rnd(4)]
    const m: Record<string, string | bigint> = {
      wallet: wallets[i % wallets.length]!,
      symbol: symbols[rnd(20)]!,
      side: sides[rnd(2)]!,
      size: sizes[rnd(100)]!,
      price: prices[rnd(300)]!,
      tif: tifs[rnd(3)]!,
      clientId: `cl-${i}-${rnd(1_000_000)}`,
      nonce: 1_790_000_000_000n + BigInt(i),
    }
    if (route) m.route = route
    return m
  })
}

interface Workload {
  name: string
  memo: boolean
  messages: OptionsMessage[]
  signed: { message: OptionsMessage; signature: Hex; digest: Hex; signer: string }[]
}

async function signedPool(messages: OptionsMessage[], keys: readonly Hex[]) {
  return Promise.all(
    messages.map(async (message, i) => {
      const key = keys[i % keys.length]!
      const s = await signOptions('PlaceOrder', message, key)
      return { message, signature: s.signature, digest: s.digest, signer: addressOf(key).toLowerCase() }
    }),
  )
}

/** The floor: native recover + keccak of the public key, nothing else, on precomputed digests. */
function floorFn(w: Workload): ((i: number) => unknown) | undefined {
  if (!nativeCryptoAvailable()) return undefined
  const secp = require('secp256k1/bindings') as {
    ecdsaRecover(sig: Uint8Array, recid: number, msg: Uint8Array, compressed: boolean, out?: Uint8Array): Uint8Array
  }
  const digests = w.signed.map((s) => Buffer.from(s.digest.slice(2), 'hex'))
  const sigs = w.signed.map((s) => Buffer.from(s.signature.slice(2, 130), 'hex'))
  const recids = w.signed.map((s) => parseInt(s.signature.slice(130), 16) - 27)
  const out = new Uint8Array(65)
  return (i) => keccak256Bytes(secp.ecdsaRecover(sigs[i]!, recids[i]!, digests[i]!, false, out).subarray(1))
}

async function measure(w: Workload): Promise<BenchSection[]> {
  const backend = cryptoBackend().name
  const oldMemo = setStringHashCache(w.memo ? 8192 : 0)
  try {
    const typed = w.messages.map((m) => typedDataFor('PlaceOrder', m) as unknown as Typed)
    const pool = w.messages.length
    // Building the peers' typed data hashed every string once: start the memo empty again, so
    // no measured message is served from a cache the peers cannot have.
    setStringHashCache(w.memo ? 8192 : 0)
    const [ours, viem, ethers] = (await compare([
      { pool, fn: (i) => digestOf('PlaceOrder', w.messages[i]!) },
      { pool, fn: (i) => hashTypedData(typed[i]!), share: 0.5 },
      { pool, fn: (i) => TypedDataEncoder.hash(typed[i]!.domain, typed[i]!.types, typed[i]!.message), share: 0.5 },
    ])) as [number, number, number]

    const sTyped = w.signed.map((s) => typedDataFor('PlaceOrder', s.message) as unknown as Typed)
    const authorize = (i: number) => {
      const s = w.signed[i]!
      const v = verifyOptions('PlaceOrder', s.message, s.signature)
      // Authorized when the recovered signer is the expected address (compared as 20 bytes).
      if (!v.ok || v.signer.toLowerCase() !== s.signer) throw new Error('bench: not authorized')
    }
    const spool = w.signed.length
    const floorOp = floorFn(w)
    setStringHashCache(w.memo ? 8192 : 0)
    const [oursAuth, viemAuth, ethersAuth, floor = NaN] = (await compare([
      { pool: spool, fn: authorize },
      {
        pool: spool,
        share: 0.5,
        fn: async (i) => {
          const a = await recoverTypedDataAddress({ ...sTyped[i]!, signature: w.signed[i]!.signature })
          if (a.toLowerCase() !== w.signed[i]!.signer) throw new Error('bench: viem mismatch')
        },
      },
      {
        pool: spool,
        share: 0.5,
        fn: (i) => {
          const t = sTyped[i]!
          const a = ethersVerifyTypedData(t.domain, t.types, t.message, w.signed[i]!.signature)
          if (a.toLowerCase() !== w.signed[i]!.signer) throw new Error('bench: ethers mismatch')
        },
      },
      ...(floorOp ? [{ pool: spool, fn: floorOp }] : []),
    ])) as [number, number, number, number?]
    const digestMet = ours / viem >= 5
    const authMet = oursAuth / viemAuth >= 20 && oursAuth / floor >= 0.5
    return [
      {
        title: `PlaceOrder digest — ${w.name}`,
        rows: [
          { name: `oec digestOf (${backend})`, value: fmt(ours), ratio: `${x(ours, viem)} viem, ${x(ours, ethers)} ethers` },
          { name: 'viem hashTypedData', value: fmt(viem) },
          { name: 'ethers TypedDataEncoder.hash', value: fmt(ethers) },
        ],
        notes: [`target ≥ 5× viem: ${digestMet ? 'met' : 'MISSED'}`],
      },
      {
        title: `Recover and authorize (digest + recover + address compare) — ${w.name}`,
        rows: [
          {
            name: `oec verifyOptions + compare (${backend})`,
            value: fmt(oursAuth),
            ratio: `${x(oursAuth, viemAuth)} viem, ${x(oursAuth, ethersAuth)} ethers, ${(oursAuth / floor).toFixed(2)}× floor`,
          },
          { name: 'viem recoverTypedDataAddress', value: fmt(viemAuth) },
          { name: 'ethers verifyTypedData', value: fmt(ethersAuth) },
          { name: 'floor: libsecp256k1 recover + keccak', value: fmt(floor) },
        ] satisfies BenchRow[],
        notes: [`targets ≥ 20× viem and ≥ 0.5× floor: ${authMet ? 'met' : 'MISSED'}`],
      },
    ]
  } finally {
    setStringHashCache(oldMemo)
  }
}

export default async function main(): Promise<BenchSection[]> {
  const keys = fc.sample(keyArb, { numRuns: 64, seed: 99 })
  const wallets = keys.map((k) => addressOf(k))
  const coldMessages = fc.sample(messageArb('PlaceOrder'), { numRuns: 2048, seed: 2026 })
  const flowMessages = orderFlow(60_000, wallets)
  const cold: Workload = {
    name: 'cold: random Unicode messages, no memo',
    memo: false,
    messages: coldMessages,
    signed: await signedPool(coldMessages.slice(0, 2048), keys),
  }
  const flow: Workload = {
    name: 'order flow: fresh client id and nonce per order, memo on',
    memo: true,
    messages: flowMessages,
    signed: await signedPool(flowMessages.slice(0, 6000), keys),
  }

  const notes = nativeCryptoAvailable() ? [] : ['native secp256k1 did not load here: no floor']
  const sections = [...(await measure(cold)), ...(await measure(flow))]

  // The pure-JS fallback on the order flow, for reference (no target).
  const prev = setCryptoBackend('js')
  setStringHashCache(8192)
  const [jsDigest, jsAuth] = (await compare(
    [
      { pool: flowMessages.length, share: 0.5, fn: (i) => digestOf('PlaceOrder', flowMessages[i]!) },
      {
        pool: flow.signed.length,
        share: 0.5,
        fn: (i) => {
          const s = flow.signed[i]!
          const v = verifyOptions('PlaceOrder', s.message, s.signature)
          if (!v.ok || v.signer.toLowerCase() !== s.signer) throw new Error('bench: js not authorized')
        },
      },
    ],
    3,
  )) as [number, number]
  setCryptoBackend(prev)
  sections.push({
    title: 'Pure-JS fallback (keccak JS sponge + secp256k1/elliptic) — order flow',
    rows: [
      { name: 'oec digestOf (js)', value: fmt(jsDigest) },
      { name: 'oec verifyOptions + compare (js)', value: fmt(jsAuth) },
    ],
    notes: [...notes, 'compare with the viem/ethers rows above (same machine, same run)'],
  })
  return sections
}
