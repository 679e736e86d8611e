/**
 * The perp Agent family: venue-style actions hashed to a connectionId (msgpack ‖ nonce ‖ vault
 * ‖ expiresAfter) and signed as Agent{source, connectionId} under the perp domain. Expected
 * values come from src/signing and are cross-checked against an independent encoding
 * (@msgpack/msgpack + ox) before a case is written.
 */
import { encode as msgpackEncode } from '@msgpack/msgpack'
import * as Hash from 'ox/Hash'
import * as OxHex from 'ox/Hex'
import { signingFor, type DomainOverrides } from '../../signing/index.ts'
import type { RuleId } from '../../contract/generated/rules.ts'
import type { VectorsContract } from '../model.ts'
import { digestTyped, domainTypeFor, recoverAddressLoose, specDomain, type DomainJson, type Party } from '../build.ts'
import { AUTH_REFUSED, type Hex, type ServerOutcome, type TypedDataJson, type VectorCase, type VectorFile } from '../model.ts'
import { caseHead, operationFor, type CaseVerdictInput } from '../options-case.ts'
import { stringifyExact } from '../exact-json.ts'
import { approveStep, FamilyBuilder, P } from './common.ts'

type Action = unknown

interface PerpCaseInput extends CaseVerdictInput {
  signer: Party
  action: Action
  nonce: bigint
  vaultAddress?: Hex
  expiresAfter?: bigint
  isMainnet?: boolean
  /** Signing domain (default: the spec's perps domain). */
  domain?: DomainJson
  /** What the body carries instead of what was signed. */
  sent?: { action?: Action; nonce?: bigint; vaultAddress?: Hex | null; expiresAfter?: bigint | null }
  setup: VectorCase['setup']
  /** A signing case only: no HTTP request (the server executes no such action). */
  signingOnly?: boolean
}

/** Integers past 32 bits as bigints: the library then writes uint64/int64, the venue's smallest form there. */
function wide(v: unknown): unknown {
  if (typeof v === 'number' && Number.isInteger(v) && (v > 0xffffffff || v < -0x80000000)) return BigInt(v)
  if (Array.isArray(v)) return v.map(wide)
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, wide(x)]))
  return v
}

/** An independent connectionId: @msgpack/msgpack (smallest integer forms) + ox keccak. */
function independentConnectionId(action: Action, nonce: bigint, vault: Hex | undefined, expiresAfter: bigint | undefined): Hex {
  const parts: Hex[] = [
    OxHex.fromBytes(msgpackEncode(wide(action), { forceIntegerToFloat: false, ignoreUndefined: true, useBigInt64: true })),
    OxHex.fromNumber(nonce, { size: 8 }),
  ]
  parts.push(vault ? OxHex.concat('0x01', vault) : '0x00')
  if (expiresAfter !== undefined) parts.push(OxHex.concat('0x00', OxHex.fromNumber(expiresAfter, { size: 8 })))
  return Hash.keccak256(OxHex.concat(...parts))
}

function overrides(d: DomainJson): DomainOverrides {
  return { name: String(d.name), version: String(d.version), chainId: Number(d.chainId), verifyingContract: d.verifyingContract as Hex }
}

function agentTypedData(spec: VectorsContract, domain: DomainJson, source: string, connectionId: Hex): TypedDataJson {
  const m = spec.typedData.messages.Agent
  if (!m) throw new Error('spec has no Agent message')
  return {
    domain,
    types: { EIP712Domain: domainTypeFor(spec, domain), [m.primaryType]: m.fields.map((f) => ({ name: f.name, type: f.type })) },
    primaryType: m.primaryType,
    message: { source, connectionId },
  }
}

function perpBody(
  action: Action,
  nonce: bigint,
  sig: { r: Hex; s: Hex; v: number },
  vault: Hex | null | undefined,
  expiresAfter: bigint | null | undefined,
): string {
  let body = `{"action":${stringifyExact(action)},"nonce":${nonce},"signature":${JSON.stringify(sig)}`
  if (vault) body += `,"vaultAddress":${JSON.stringify(vault)}`
  if (expiresAfter !== undefined && expiresAfter !== null) body += `,"expiresAfter":${expiresAfter}`
  return body + '}'
}

async function perpCase(spec: VectorsContract, tcId: number, input: PerpCaseInput): Promise<VectorCase> {
  const defaultDomain = specDomain(spec, 'perps')
  const domain = input.domain ?? defaultDomain
  const isMainnet = input.isMainnet ?? true
  const signIn = {
    action: input.action,
    nonce: input.nonce,
    vaultAddress: input.vaultAddress ?? null,
    expiresAfter: input.expiresAfter ?? null,
    isMainnet,
  }
  const s = await signingFor(spec).signPerpAction(signIn, input.signer.key, overrides(domain))
  const independent = independentConnectionId(input.action, input.nonce, input.vaultAddress, input.expiresAfter)
  if (independent !== s.connectionId)
    throw new Error(`perp vector ${tcId}: connectionId ${s.connectionId} from src/signing, ${independent} from @msgpack/msgpack`)
  const td = agentTypedData(spec, domain, isMainnet ? 'a' : 'b', s.connectionId)
  if (digestTyped(td) !== s.digest) throw new Error(`perp vector ${tcId}: digest differs between src/signing and ox`)

  const sent = {
    action: input.action,
    nonce: input.nonce,
    vaultAddress: input.vaultAddress ?? null,
    expiresAfter: input.expiresAfter ?? null,
    ...input.sent,
  }
  const body = perpBody(sent.action, sent.nonce, { r: s.r, s: s.s, v: s.v }, sent.vaultAddress, sent.expiresAfter)
  const op = operationFor(spec, 'Agent')
  const protocolMessage = (
    m: { action: Action; nonce: bigint; vaultAddress: Hex | null; expiresAfter: bigint | null },
    mainnet: boolean,
  ) => ({
    action: m.action,
    nonce: m.nonce.toString(),
    ...(m.vaultAddress ? { vaultAddress: m.vaultAddress } : {}),
    ...(m.expiresAfter !== null ? { expiresAfter: m.expiresAfter.toString() } : {}),
    isMainnet: mainnet,
  })
  // The verifier's view: what a mainnet server rebuilds from the body, under the perp domain.
  const serverConnectionId = independentConnectionId(
    sent.action,
    sent.nonce,
    sent.vaultAddress ?? undefined,
    sent.expiresAfter ?? undefined,
  )
  const serverDigest = digestTyped(agentTypedData(spec, defaultDomain, 'a', serverConnectionId))
  const recovered = await recoverAddressLoose(serverDigest, s.signature)
  const c: VectorCase = {
    ...caseHead(tcId, input),
    kind: 'Agent',
    privateKey: input.signer.key,
    signer: input.signer.address,
    wallet: input.vaultAddress ?? input.signer.address,
    typedData: td,
    digest: s.digest,
    signature: s.signature,
    perp: { ...protocolMessage(signIn, isMainnet), connectionId: s.connectionId } as VectorCase['perp'] & object,
    ...(input.signingOnly ? {} : { request: { method: op.method, path: op.path, body } }),
    sign: {
      kind: 'Agent',
      ...(JSON.stringify(domain) === JSON.stringify(defaultDomain) ? {} : { domain }),
      message: protocolMessage(signIn, isMainnet),
    },
    verify: {
      kind: 'Agent',
      message: protocolMessage(sent, true),
      signature: s.signature,
      digest: serverDigest,
      accept: recovered?.toLowerCase() === input.signer.address.toLowerCase(),
    },
  }
  if (input.setup && !input.signingOnly) c.setup = input.setup
  return c
}

const order = (a: number | bigint, extra: Record<string, unknown> = {}): { type: string; orders: unknown[]; grouping: string } => ({
  type: 'order',
  orders: [{ a, b: true, p: '1000', s: '0.1', r: false, t: { limit: { tif: 'Gtc' } }, ...extra }],
  grouping: 'na',
})
const cancel = (a: number | bigint, o: number | bigint): Action => ({ type: 'cancel', cancels: [{ a, o }] })

export async function perpFamily(spec: VectorsContract): Promise<VectorFile> {
  const b = new FamilyBuilder(spec, 'perp-agent', 'Perp Agent{source, connectionId} over msgpack actions (perp domain)', [
    'connectionId = keccak256(msgpack(action) ‖ nonce u64 BE ‖ 0x00 | 0x01 ‖ vault [‖ 0x00 ‖ expiresAfter u64 BE]); signed as Agent under Exchange / 1 / 1337.',
    'The server is assumed to run as mainnet (source "a"). Every signer needs state first (setup: an agent approval).',
  ])
  const add = async (input: PerpCaseInput) => b.push(await perpCase(spec, b.tcId(), input))
  const state = [await approveStep(spec, P.perp, P.subAgent.address, 10n)]
  const vaultState = [await approveStep(spec, P.vault, P.perpAgent.address, 11n)]
  const ok: ServerOutcome[] = ['accepted', 'rejected']
  const base: RuleId[] = ['PERP-1', 'PERP-2', 'PERP-4', 'PERP-5', 'PERP-6']
  let nonce = 1_763_700_000_000n
  const next = () => nonce++

  b.group('PerpValid', 'Agent', 'source, vault address and expiresAfter combinations')
  for (const isMainnet of [true, false]) {
    for (const vault of [false, true]) {
      for (const expires of [false, true]) {
        const what = `${isMainnet ? 'mainnet (source a)' : 'testnet (source b)'}, ${vault ? 'with' : 'without'} vaultAddress, ${expires ? 'with' : 'without'} expiresAfter`
        await add({
          comment: isMainnet ? `order, ${what}` : `order, ${what}: a correct testnet signature, refused by a mainnet server`,
          rules: [...base],
          flags: [isMainnet ? 'Mainnet' : 'Testnet', ...(vault ? ['VaultAddress'] : []), ...(expires ? ['ExpiresAfter'] : [])],
          level: isMainnet ? 'stated' : 'assumed',
          result: 'valid',
          server: isMainnet ? ok : AUTH_REFUSED,
          signer: vault ? P.perpAgent : P.perp,
          action: order(0),
          nonce: next(),
          isMainnet,
          ...(vault ? { vaultAddress: P.vault.address } : {}),
          ...(expires ? { expiresAfter: 1_763_800_000_000n } : {}),
          setup: vault ? vaultState : state,
        })
      }
    }
  }
  const shapes: [string, Action][] = [
    ['cancel of one order', cancel(0, 12345)],
    ['sell order with a client order ID', order(1, { b: false, c: '0x1234567890abcdef1234567890abcdef' })],
    ['two orders in one action', { type: 'order', orders: [order(0).orders, order(2).orders].flat() as unknown[], grouping: 'na' }],
    ['Ioc reduce-only order', order(0, { r: true, t: { limit: { tif: 'Ioc' } } })],
    ['Alo order', order(0, { t: { limit: { tif: 'Alo' } } })],
  ]
  for (const [comment, action] of shapes) {
    await add({
      comment,
      rules: [...base],
      flags: ['Mainnet'],
      result: 'valid',
      server: ok,
      signer: P.perp,
      action,
      nonce: next(),
      setup: state,
    })
  }
  await add({
    comment: 'nonce 2^64-1',
    rules: [...base, 'NONCE-1'],
    flags: ['Mainnet', 'BoundaryNonce'],
    result: 'valid',
    server: ok,
    signer: P.perp,
    action: order(0),
    nonce: 2n ** 64n - 1n,
    setup: state,
  })
  await add({
    comment: 'nonce 0',
    rules: [...base, 'NONCE-1'],
    flags: ['Mainnet', 'BoundaryNonce'],
    result: 'valid',
    server: ok,
    signer: P.perp,
    action: order(0),
    nonce: 0n,
    setup: state,
  })

  b.group('MsgpackIntWidth', 'Agent', 'integers at msgpack width boundaries')
  for (const n of [0, 127, 128, 255, 256, 65535, 65536, 2 ** 32]) {
    await add({
      comment: `order with asset index a = ${n}`,
      rules: [...base],
      flags: ['Mainnet', 'MsgpackIntWidth'],
      level: 'assumed',
      result: 'valid',
      server: n === 0 ? ok : ['rejected', 'invalid_field'],
      signer: P.perp,
      action: order(n),
      nonce: next(),
      setup: state,
    })
    await add({
      comment: `cancel of order ID o = ${n}`,
      rules: [...base],
      flags: ['Mainnet', 'MsgpackIntWidth'],
      level: 'assumed',
      result: 'valid',
      server: ok,
      signer: P.perp,
      action: cancel(0, n),
      nonce: next(),
      setup: state,
    })
  }

  b.group('MsgpackUint64', 'Agent', 'integers past 2^53, up to 2^64-1, read and hashed exactly')
  for (const o of [2n ** 53n + 1n, 2n ** 63n, 2n ** 64n - 1n]) {
    await add({
      comment: `cancel of order ID o = ${o}: authenticated (no such order, an error status)`,
      rules: [...base],
      flags: ['Mainnet', 'MsgpackUint64'],
      level: 'assumed',
      result: 'valid',
      server: ok,
      signer: P.perp,
      action: cancel(0, o),
      nonce: next(),
      setup: state,
    })
  }
  await add({
    comment: 'order with asset index a = 2^53+1: authenticated, an unknown asset',
    rules: [...base],
    flags: ['Mainnet', 'MsgpackUint64'],
    level: 'assumed',
    result: 'valid',
    server: ['rejected', 'invalid_field'],
    signer: P.perp,
    action: order(2n ** 53n + 1n),
    nonce: next(),
    setup: state,
  })

  b.group('CancelByCloid', 'Agent', 'cancel by client order ID')
  await add({
    comment: 'cancelByCloid of one order (asset, cloid)',
    rules: [...base],
    flags: ['Mainnet', 'CancelByCloid'],
    level: 'assumed',
    result: 'valid',
    server: ok,
    signer: P.perp,
    action: { type: 'cancelByCloid', cancels: [{ asset: 0, cloid: '0x1234567890abcdef1234567890abcdef' }] },
    nonce: next(),
    setup: state,
  })

  b.group('ArrayAction', 'Agent', "the venue's multi-signature inner form: the signed action is an array")
  for (const isMainnet of [true, false]) {
    await add({
      comment: `[multiSigUser, outerSigner, action] with addresses lower-cased (${isMainnet ? 'mainnet' : 'testnet'}); signing only, this server executes no multiSig action`,
      rules: ['PERP-1', 'PERP-2'],
      flags: [isMainnet ? 'Mainnet' : 'Testnet', 'ArrayAction'],
      level: 'assumed',
      result: 'valid',
      server: ok,
      signer: P.perp,
      action: [P.vault.address.toLowerCase(), P.perp.address.toLowerCase(), { type: 'scheduleCancel', time: 1_763_700_000_000 }],
      nonce: next(),
      isMainnet,
      signingOnly: true,
      setup: state,
    })
  }

  b.group('KeyOrder', 'Agent', 'action keys in another order')
  const reordered: Action = { grouping: 'na', orders: order(0).orders, type: 'order' }
  const innerReordered: Action = {
    type: 'order',
    orders: [{ b: true, a: 0, p: '1000', s: '0.1', r: false, t: { limit: { tif: 'Gtc' } } }],
    grouping: 'na',
  }
  const sortedOrder: Action = {
    type: 'order',
    orders: [{ a: 0, b: true, p: '1000', r: false, s: '0.1', t: { limit: { tif: 'Gtc' } } }],
    grouping: 'na',
  }
  for (const [comment, action] of [
    ['top-level action keys reversed (grouping, orders, type)', reordered],
    ['order keys b before a', innerReordered],
    ['order keys sorted alphabetically (r before s)', sortedOrder],
  ] as const) {
    await add({
      comment: `${comment}, signed and sent that way: msgpack keeps the order, so the venue's canonical encoding differs`,
      rules: [...base, 'PERP-5'],
      flags: ['KeyOrder'],
      level: 'assumed',
      result: 'invalid',
      server: [...AUTH_REFUSED, 'invalid_field'],
      signer: P.perp,
      action,
      nonce: next(),
      setup: state,
    })
    await add({
      comment: `${comment} when signing, canonical order in the body`,
      rules: [...base, 'PERP-5'],
      flags: ['KeyOrder'],
      level: 'assumed',
      result: 'invalid',
      server: AUTH_REFUSED,
      signer: P.perp,
      action,
      nonce: next(),
      sent: { action: order(0) },
      setup: state,
    })
  }

  b.group('PerpWrongDomain', 'Agent', 'the perp action signed under another domain')
  const perpDom = specDomain(spec, 'perps')
  const optDom = specDomain(spec, 'options')
  const domains: [string, DomainJson, RuleId[]][] = [
    ['chainId 999 (the options chain)', { ...perpDom, chainId: optDom.chainId! }, ['PERP-1', 'PERP-3']],
    ['the options domain (Service / 1 / 999)', { ...optDom }, ['PERP-1', 'PERP-3']],
    ['name Service with chainId 1337', { ...perpDom, name: optDom.name! }, ['PERP-1', 'PERP-3']],
    ['chainId 1', { ...perpDom, chainId: 1 }, ['PERP-1']],
    ['chainId 42161', { ...perpDom, chainId: 42161 }, ['PERP-1']],
    ['version "2"', { ...perpDom, version: '2' }, ['PERP-1']],
  ]
  for (const [comment, domain, rules] of domains) {
    await add({
      comment: `order signed under ${comment}`,
      rules: [...rules, 'SIGFAIL-4'],
      flags: ['WrongDomain', 'PerpDomainOnOptions'],
      result: 'invalid',
      server: AUTH_REFUSED,
      signer: P.perp,
      action: order(0),
      nonce: next(),
      domain,
      setup: state,
    })
  }

  b.group('PerpTampered', 'Agent', 'the body differs from what was signed')
  await add({
    comment: 'price changed after signing',
    rules: [...base, 'SIGFAIL-2', 'PERP-7'],
    flags: ['TamperedField'],
    result: 'invalid',
    server: AUTH_REFUSED,
    signer: P.perp,
    action: order(0),
    nonce: next(),
    sent: { action: order(0, { p: '1001' }) },
    setup: state,
  })
  await add({
    comment: 'is-buy flipped after signing',
    rules: [...base, 'SIGFAIL-2'],
    flags: ['TamperedField'],
    result: 'invalid',
    server: AUTH_REFUSED,
    signer: P.perp,
    action: order(0),
    nonce: next(),
    sent: { action: order(0, { b: false }) },
    setup: state,
  })
  await add({
    comment: 'nonce changed after signing',
    rules: [...base, 'SIGFAIL-3'],
    flags: ['NonceMismatch'],
    result: 'invalid',
    server: AUTH_REFUSED,
    signer: P.perp,
    action: order(0),
    nonce: 1_763_700_100_000n,
    sent: { nonce: 1_763_700_100_001n },
    setup: state,
  })
  await add({
    comment: 'vaultAddress sent but not signed',
    rules: [...base],
    flags: ['VaultNotSigned'],
    result: 'invalid',
    server: AUTH_REFUSED,
    signer: P.perpAgent,
    action: order(0),
    nonce: next(),
    sent: { vaultAddress: P.vault.address },
    setup: vaultState,
  })
  await add({
    comment: 'vaultAddress signed but left out of the body',
    rules: [...base],
    flags: ['VaultNotSigned'],
    result: 'invalid',
    server: AUTH_REFUSED,
    signer: P.perpAgent,
    action: order(0),
    nonce: next(),
    vaultAddress: P.vault.address,
    sent: { vaultAddress: null },
    setup: vaultState,
  })
  await add({
    comment: 'expiresAfter signed but left out of the body',
    rules: [...base],
    flags: ['TamperedField'],
    result: 'invalid',
    server: AUTH_REFUSED,
    signer: P.perp,
    action: order(0),
    nonce: next(),
    expiresAfter: 1_763_800_000_000n,
    sent: { expiresAfter: null },
    setup: state,
  })
  await add({
    comment: 'testnet signature (source b) sent to a mainnet server',
    rules: [...base],
    flags: ['Testnet'],
    level: 'assumed',
    result: 'invalid',
    server: AUTH_REFUSED,
    signer: P.perp,
    action: order(0),
    nonce: next(),
    isMainnet: false,
    setup: state,
  })
  await add({
    comment: 'signed by a stranger for a vault that never approved it',
    rules: [...base, 'AUTH-2', 'AUTH-4', 'PERP-7'],
    flags: ['StrangerSigned'],
    result: 'invalid',
    server: AUTH_REFUSED,
    signer: P.stranger,
    action: order(0),
    nonce: next(),
    vaultAddress: P.vault.address,
    setup: vaultState,
  })
  return b.build()
}
