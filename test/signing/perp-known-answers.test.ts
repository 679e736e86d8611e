/**
 * Known answers published in the perpetuals venue's own SDK test suites, reproduced exactly:
 * hyperliquid-dex/hyperliquid-python-sdk tests/signing_test.py (sign_l1_action) and
 * nktkas/hyperliquid tests/signing/mod.test.ts (action hashes and signatures with
 * vaultAddress / expiresAfter). Actions are rebuilt here as the SDKs build them on the wire.
 */
import { Wallet } from 'ethers'
import fc from 'fast-check'
import { hashTypedData, type TypedDataDefinition } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { createL1ActionHash } from '@nktkas/hyperliquid/signing'
import { addressOf, perpActionHash, type Hex } from '../../src/signing/index.ts'
import { perpTypedData, recoverPerpSigner, signPerpAction } from '../helpers/shipped.ts'
import { runOec } from '../helpers/cli.ts'
import { propertyRuns, underMutation } from '../helpers/mutation.ts'
import { forEachBackend } from './backends.ts'

// Python SDK: eth_account key used by every signing test there.
const PY_KEY = '0x0123456789012345678901234567890123456789012345678901234567890123' as Hex
// TS SDK: the key of its signing tests.
const TS_KEY = '0x822e9959e022b78423eb653a62ea0020cd283e71a2a8133a6ff2aeffaf373cff' as Hex

const orderWire = (extra: Record<string, unknown> = {}, t: unknown = { limit: { tif: 'Gtc' } }) => ({
  type: 'order',
  orders: [{ a: 1, b: true, p: '100', s: '100', r: false, t, ...extra }],
  grouping: 'na',
})

interface Case {
  name: string
  action: Record<string, unknown>
  vault: Hex | null
  mainnet: { r: string; s: string; v: number }
  testnet: { r: string; s: string; v: number }
}

const PY_CASES: Case[] = [
  {
    name: 'dummy action (float_to_int_for_hashing(1000))',
    action: { type: 'dummy', num: 100000000000 },
    vault: null,
    mainnet: {
      r: '0x53749d5b30552aeb2fca34b530185976545bb22d0b3ce6f62e31be961a59298',
      s: '0x755c40ba9bf05223521753995abb2f73ab3229be8ec921f350cb447e384d8ed8',
      v: 27,
    },
    testnet: {
      r: '0x542af61ef1f429707e3c76c5293c80d01f74ef853e34b76efffcb57e574f9510',
      s: '0x17b8b32f086e8cdede991f1e2c529f5dd5297cbe8128500e00cbaf766204a613',
      v: 28,
    },
  },
  {
    name: 'order',
    action: orderWire(),
    vault: null,
    mainnet: {
      r: '0xd65369825a9df5d80099e513cce430311d7d26ddf477f5b3a33d2806b100d78e',
      s: '0x2b54116ff64054968aa237c20ca9ff68000f977c93289157748a3162b6ea940e',
      v: 28,
    },
    testnet: {
      r: '0x82b2ba28e76b3d761093aaded1b1cdad4960b3af30212b343fb2e6cdfa4e3d54',
      s: '0x6b53878fc99d26047f4d7e8c90eb98955a109f44209163f52d8dc4278cbbd9f5',
      v: 27,
    },
  },
  {
    name: 'order with cloid',
    action: orderWire({ c: '0x00000000000000000000000000000001' }),
    vault: null,
    mainnet: {
      r: '0x41ae18e8239a56cacbc5dad94d45d0b747e5da11ad564077fcac71277a946e3',
      s: '0x3c61f667e747404fe7eea8f90ab0e76cc12ce60270438b2058324681a00116da',
      v: 27,
    },
    testnet: {
      r: '0xeba0664bed2676fc4e5a743bf89e5c7501aa6d870bdb9446e122c9466c5cd16d',
      s: '0x7f3e74825c9114bc59086f1eebea2928c190fdfbfde144827cb02b85bbe90988',
      v: 28,
    },
  },
  {
    name: 'dummy action with vault address',
    action: { type: 'dummy', num: 100000000000 },
    vault: '0x1719884eb866cb12b2287399b15f7db5e7d775ea',
    mainnet: {
      r: '0x3c548db75e479f8012acf3000ca3a6b05606bc2ec0c29c50c515066a326239',
      s: '0x4d402be7396ce74fbba3795769cda45aec00dc3125a984f2a9f23177b190da2c',
      v: 28,
    },
    testnet: {
      r: '0xe281d2fb5c6e25ca01601f878e4d69c965bb598b88fac58e475dd1f5e56c362b',
      s: '0x7ddad27e9a238d045c035bc606349d075d5c5cd00a6cd1da23ab5c39d4ef0f60',
      v: 27,
    },
  },
  {
    name: 'tpsl trigger order (key order isMarket, triggerPx, tpsl)',
    action: orderWire({}, { trigger: { isMarket: true, triggerPx: '103', tpsl: 'sl' } }),
    vault: null,
    mainnet: {
      r: '0x98343f2b5ae8e26bb2587daad3863bc70d8792b09af1841b6fdd530a2065a3f9',
      s: '0x6b5bb6bb0633b710aa22b721dd9dee6d083646a5f8e581a20b545be6c1feb405',
      v: 27,
    },
    testnet: {
      r: '0x971c554d917c44e0e1b6cc45d8f9404f32172a9d3b3566262347d0302896a2e4',
      s: '0x206257b104788f80450f8e786c329daa589aa0b32ba96948201ae556d5637eac',
      v: 28,
    },
  },
  {
    name: 'createSubAccount',
    action: { type: 'createSubAccount', name: 'example' },
    vault: null,
    mainnet: {
      r: '0x51096fe3239421d16b671e192f574ae24ae14329099b6db28e479b86cdd6caa7',
      s: '0xb71f7d293af92d3772572afb8b102d167a7cef7473388286bc01f52a5c5b423',
      v: 27,
    },
    testnet: {
      r: '0xa699e3ed5c2b89628c746d3298b5dc1cca604694c2c855da8bb8250ec8014a5b',
      s: '0x53f1b8153a301c72ecc655b1c315d64e1dcea3ee58921fd7507e35818fcc1584',
      v: 28,
    },
  },
  {
    name: 'subAccountTransfer (bool, small int)',
    action: { type: 'subAccountTransfer', subAccountUser: '0x1d9470d4b963f552e6f671a81619d395877bf409', isDeposit: true, usd: 10 },
    vault: null,
    mainnet: {
      r: '0x43592d7c6c7d816ece2e206f174be61249d651944932b13343f4d13f306ae602',
      s: '0x71a926cb5c9a7c01c3359ec4c4c34c16ff8107d610994d4de0e6430e5cc0f4c9',
      v: 28,
    },
    testnet: {
      r: '0xe26574013395ad55ee2f4e0575310f003c5bb3351b5425482e2969fa51543927',
      s: '0xefb08999196366871f919fd0e138b3a7f30ee33e678df7cfaf203e25f0a4278',
      v: 28,
    },
  },
  {
    name: 'scheduleCancel',
    action: { type: 'scheduleCancel' },
    vault: null,
    mainnet: {
      r: '0x6cdfb286702f5917e76cd9b3b8bf678fcc49aec194c02a73e6d4f16891195df9',
      s: '0x6557ac307fa05d25b8d61f21fb8a938e703b3d9bf575f6717ba21ec61261b2a0',
      v: 27,
    },
    testnet: {
      r: '0xc75bb195c3f6a4e06b7d395acc20bbb224f6d23ccff7c6a26d327304e6efaeed',
      s: '0x342f8ede109a29f2c0723bd5efb9e9100e3bbb493f8fb5164ee3d385908233df',
      v: 28,
    },
  },
  {
    name: 'scheduleCancel with time (uint32)',
    action: { type: 'scheduleCancel', time: 123456789 },
    vault: null,
    mainnet: {
      r: '0x609cb20c737945d070716dcc696ba030e9976fcf5edad87afa7d877493109d55',
      s: '0x16c685d63b5c7a04512d73f183b3d7a00da5406ff1f8aad33f8ae2163bab758b',
      v: 28,
    },
    testnet: {
      r: '0x4e4f2dbd4107c69783e251b7e1057d9f2b9d11cee213441ccfa2be63516dc5bc',
      s: '0x706c656b23428c8ba356d68db207e11139ede1670481a9e01ae2dfcdb0e1a678',
      v: 27,
    },
  },
]

// TS SDK: one order action under every combination of vaultAddress and expiresAfter.
const TS_ACTION = {
  type: 'order',
  orders: [{ a: 0, b: true, p: '30000', s: '0.1', r: false, t: { limit: { tif: 'Gtc' } } }],
  grouping: 'na',
}
const TS_NONCE = 1234567890n
const TS_VAULT = '0x1234567890123456789012345678901234567890' as Hex
const TS_EXPIRES = 1234567890n
const TS_CASES = [
  {
    name: 'without vaultAddress and expiresAfter',
    vault: null,
    expires: null,
    hash: '0x25367e0dba84351148288c2233cd6130ed6cec5967ded0c0b7334f36f957cc90',
    mainnet: {
      r: '0x61078d8ffa3cb591de045438a1ae2ed299b271891d1943a33901e7cfb3a31ed8',
      s: '0x0e91df4f9841641d3322dad8d932874b74d7e082cdb5b533f804964a6963aef9',
      v: 28,
    },
    testnet: {
      r: '0x6b0283a894d87b996ad0182b86251cc80d27d61ef307449a2ed249a508ded1f7',
      s: '0x6f884e79f4a0a10af62db831af6f8e03b3f11d899eb49b352f836746ee9226da',
      v: 27,
    },
  },
  {
    name: 'with vaultAddress',
    vault: TS_VAULT,
    expires: null,
    hash: '0x214e2ea3270981b6fd18174216691e69f56872663139d396b10ded319cb4bb1e',
    mainnet: {
      r: '0x77151b3ae29b83c8affb3791568c6452019ba8c30019236003abb1efcd809433',
      s: '0x55668c02f6ad4a1c335ce99987b7545984c4edc1765fe52cf115a423dc8279bb',
      v: 27,
    },
    testnet: {
      r: '0x294a6cf713483c129be9af5c7450aca59c9082f391f02325715c0d04b7f48ac1',
      s: '0x119cfd947dcd2da1d1064a9d08bcf07e01fc9b72dd7cca69a988c74249e300f0',
      v: 27,
    },
  },
  {
    name: 'with expiresAfter',
    vault: null,
    expires: TS_EXPIRES,
    hash: '0xc30b002ba3775e4c31c43c1dfd3291dfc85c6ae06c6b9f393991de86cad5fac7',
    mainnet: {
      r: '0x162a52128fb58bc6adb783e3d36913c53127851144fc45c5603a51e97b9202fd',
      s: '0x469571eb0a2101a32f81f9584e15fd35c723a6089e106f4f33798dbccf7cd416',
      v: 28,
    },
    testnet: {
      r: '0x5094989a7c0317db6553f21dd7f90d43415e8bd01af03829de249d4ea0aa5f66',
      s: '0x491d04966e81662bd4e70d607fac30e71803c01733f4f66ff7299b0470675b8b',
      v: 27,
    },
  },
  {
    name: 'with vaultAddress and expiresAfter',
    vault: TS_VAULT,
    expires: TS_EXPIRES,
    hash: '0x2d62412aa0fc57441b5189841d81554a6a9680bf07204e1454983a9ca44f0744',
    mainnet: {
      r: '0x78fcca006d7fdfaf1f66978ef7a60280246fc3e7a5b39a68a1656c3e42c58bf1',
      s: '0x61a09957de7f0886c2bdffb7a94e3a257bf240796883ea6ceaf4d0be37055cdd',
      v: 27,
    },
    testnet: {
      r: '0x3a0bbbd9fadca54f58a2b7050899cecb97f68b2f693c63e91ca60510427326d7',
      s: '0x60f75f12cae7b9dc18b889406192afcaf13f40d2f8c68cc01f7f83f3fb5deb23',
      v: 27,
    },
  },
] as const

// TS SDK, multi-signature: each inner signer signs the array [multiSigUser, outerSigner, action]
// (addresses lower-cased) as an L1 action; these are the inner signatures its fixture publishes
// for TS_KEY, whose address is the outer signer.
const MULTI_SIG_INNER = {
  action: [
    '0x1234567890123456789012345678901234567890',
    '0xe5ca49fb3bd9a581f0d1ef9cb5d7177da08bf901',
    { type: 'scheduleCancel', time: 1234567890 },
  ],
  nonce: 1234567890n,
  mainnet: {
    r: '0x29f311b52c9e240f515c65eded550375aa64c847a03362c6f79429b21f349b54',
    s: '0x4838140a3d4c0887a49eac5e618aca790878572da9840ee05a70ee39effc8542',
    v: 27,
  },
  testnet: {
    r: '0x6335259aaa20d922e8544187a10d796b6e79e514ec1aaedfa1e990bdafd5000b',
    s: '0x73f50780ed5f436d5853c4592bc2189fde08b776f62f953f7271ff5385894d94',
    v: 28,
  },
} as const

/** The Python SDK prints r and s through to_hex(int): compare as numbers. */
const num = (h: string) => BigInt(h)

forEachBackend((backend) => {
  describe(`perp known answers (${backend})`, () => {
    it('reproduces the production connectionId of the Python SDK', () => {
      const action = {
        type: 'order',
        orders: [{ a: 4, b: true, p: '1670.1', s: '0.0147', r: false, t: { limit: { tif: 'Ioc' } } }],
        grouping: 'na',
      }
      expect(perpActionHash({ action, nonce: 1677777606040n })).toBe('0x0fcbeda5ae3c4950a548021552a4fea2226858c4453571bf3f24ba017eac2908')
    })

    for (const c of PY_CASES) {
      for (const net of ['mainnet', 'testnet'] as const) {
        it(`python sdk: ${c.name} (${net})`, async () => {
          const input = { action: c.action, nonce: 0n, vaultAddress: c.vault, isMainnet: net === 'mainnet' }
          const sig = await signPerpAction(input, PY_KEY)
          const want = c[net]
          expect([num(sig.r), num(sig.s), sig.v]).toEqual([num(want.r), num(want.s), want.v])
          // The venue's unpadded r/s form recovers the same signer.
          const rec = recoverPerpSigner(input, want)
          expect(rec.ok && rec.signer).toBe(addressOf(PY_KEY))
        })
      }
    }

    for (const net of ['mainnet', 'testnet'] as const) {
      it(`ts sdk multi-signature inner action (an array) (${net})`, async () => {
        const input = { action: MULTI_SIG_INNER.action, nonce: MULTI_SIG_INNER.nonce, isMainnet: net === 'mainnet' }
        const sig = await signPerpAction(input, TS_KEY)
        expect({ r: sig.r, s: sig.s, v: sig.v }).toEqual(MULTI_SIG_INNER[net])
        expect(recoverPerpSigner(input, MULTI_SIG_INNER[net])).toMatchObject({ ok: true, signer: addressOf(TS_KEY) })
      })
    }

    for (const c of TS_CASES) {
      it(`ts sdk action hash: ${c.name}`, () => {
        expect(perpActionHash({ action: TS_ACTION, nonce: TS_NONCE, vaultAddress: c.vault, expiresAfter: c.expires })).toBe(c.hash)
      })
      for (const net of ['mainnet', 'testnet'] as const) {
        it(`ts sdk signature: ${c.name} (${net})`, async () => {
          const input = { action: TS_ACTION, nonce: TS_NONCE, vaultAddress: c.vault, expiresAfter: c.expires, isMainnet: net === 'mainnet' }
          const sig = await signPerpAction(input, TS_KEY)
          expect({ r: sig.r, s: sig.s, v: sig.v }).toEqual(c[net])
          expect(sig.connectionId).toBe(c.hash)
          expect(sig.signature).toBe(`${c[net].r}${c[net].s.slice(2)}${c[net].v.toString(16)}`)
        })
      }
    }
  })
})

describe('perp Agent signatures vs viem and ethers on random actions', () => {
  const orderArb = fc.record({
    a: fc.nat({ max: 10_000 }),
    b: fc.boolean(),
    p: fc.stringMatching(/^(0|[1-9][0-9]{0,6})(\.[0-9]{1,6})?$/),
    s: fc.stringMatching(/^(0|[1-9][0-9]{0,6})(\.[0-9]{1,6})?$/),
    r: fc.boolean(),
    t: fc.record({ limit: fc.record({ tif: fc.constantFrom('Gtc', 'Ioc', 'Alo') }) }),
  })
  const inputArb = fc.record({
    action: fc.oneof(
      fc.record({ type: fc.constant('order'), orders: fc.array(orderArb, { minLength: 1, maxLength: 4 }), grouping: fc.constant('na') }),
      fc.record({
        type: fc.constant('cancel'),
        cancels: fc.array(fc.record({ a: fc.nat(), o: fc.nat() }), { minLength: 1, maxLength: 4 }),
      }),
    ),
    nonce: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
    vaultAddress: fc.option(
      fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString('hex')}` as Hex),
      { nil: null },
    ),
    expiresAfter: fc.option(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { nil: null }),
    isMainnet: fc.boolean(),
  })

  it('digest, signature and recovered signer agree with viem and ethers', async () => {
    const account = privateKeyToAccount(TS_KEY)
    const wallet = new Wallet(TS_KEY)
    await fc.assert(
      fc.asyncProperty(
        inputArb,
        fc.option(fc.record({ chainId: fc.constantFrom(999, 1337, 1) }), { nil: undefined }),
        async (input, domain) => {
          const ours = await signPerpAction(input, TS_KEY, domain)
          const typed = perpTypedData(input, domain)
          expect(ours.digest).toBe(hashTypedData(typed as unknown as TypedDataDefinition))
          expect(ours.signature).toBe(await account.signTypedData(typed as unknown as TypedDataDefinition))
          expect(ours.signature).toBe(await wallet.signTypedData({ ...typed.domain } as never, typed.types, typed.message))
          expect(recoverPerpSigner(input, ours, domain ? { domain } : {})).toMatchObject({ ok: true, signer: account.address })
        },
      ),
      { numRuns: propertyRuns(60), seed: 20261123 },
    )
  })
})

/** One JSON-lines request per published answer, so `oec sign` itself is held to them. */
function knownAnswerRequests(): { line: string; want: { r: string; s: string; v: number } }[] {
  const out: { line: string; want: { r: string; s: string; v: number } }[] = []
  const add = (
    key: Hex,
    action: unknown,
    nonce: bigint,
    net: 'mainnet' | 'testnet',
    want: { r: string; s: string; v: number },
    extra: { vault?: Hex | null; expires?: bigint | null } = {},
  ) => {
    const message = {
      action,
      nonce: `@@${nonce}@@`,
      isMainnet: net === 'mainnet',
      ...(extra.vault ? { vaultAddress: extra.vault } : {}),
      ...(extra.expires != null ? { expiresAfter: `@@${extra.expires}@@` } : {}),
    }
    const line = JSON.stringify({ id: out.length, op: 'sign', kind: 'Agent', privateKey: key, message }).replace(/"@@(\d+)@@"/g, '$1')
    out.push({ line, want })
  }
  for (const c of PY_CASES) for (const net of ['mainnet', 'testnet'] as const) add(PY_KEY, c.action, 0n, net, c[net], { vault: c.vault })
  for (const c of TS_CASES)
    for (const net of ['mainnet', 'testnet'] as const) add(TS_KEY, TS_ACTION, TS_NONCE, net, c[net], { vault: c.vault, expires: c.expires })
  for (const net of ['mainnet', 'testnet'] as const) add(TS_KEY, MULTI_SIG_INNER.action, MULTI_SIG_INNER.nonce, net, MULTI_SIG_INNER[net])
  return out
}

describe('oec sign reproduces the published known answers', () => {
  it.skipIf(underMutation)(
    'every case, the multi-signature inner array included, through the real binary (--jsonl)',
    async () => {
      const reqs = knownAnswerRequests()
      const r = await runOec(['sign', '--jsonl'], { input: reqs.map((q) => q.line).join('\n') + '\n', timeoutMs: 60_000 })
      expect(r.code, r.stderr).toBe(0)
      const answers = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: number; r: string; s: string; v: number; error?: string })
      expect(answers).toHaveLength(reqs.length)
      for (const a of answers) {
        const want = reqs[a.id]!.want
        expect([num(a.r), num(a.s), a.v], `${reqs[a.id]!.line.slice(0, 120)} ${a.error ?? ''}`).toEqual([num(want.r), num(want.s), want.v])
      }
    },
    90_000,
  )
})

describe('integers past 2^53 hash as the venue SDK hashes them', () => {
  it('o = 2^53+1, a = 2^32, nonce 2^64-1: the same connectionId as @nktkas/hyperliquid createL1ActionHash', () => {
    for (const o of [2n ** 53n + 1n, 2n ** 63n, 2n ** 64n - 1n]) {
      const action = { type: 'cancel', cancels: [{ a: 2n ** 32n, o }] }
      // The SDK's own encoder (@std/msgpack) writes bigints as uint64: an implementation independent of ours.
      expect(perpActionHash({ action, nonce: 2n ** 64n - 1n })).toBe(createL1ActionHash({ action, nonce: 2n ** 64n - 1n } as never))
    }
    // A JS number past 2^53 may already be rounded (2 ** 53 + 1 is 2 ** 53): refused, never hashed.
    expect(() => perpActionHash({ action: { type: 'cancel', cancels: [{ a: 0, o: 2 ** 53 + 1 }] }, nonce: 1n })).toThrow(/past 2\^53/)
  })
})
