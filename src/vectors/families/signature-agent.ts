/**
 * Signature encodings (v forms, malleability, malformed hex), cancels, and agent approval.
 */
import type { RuleId } from '../../contract/generated/rules.ts'
import type { VectorsContract } from '../model.ts'
import {
  compact,
  highS,
  joinSig,
  raw,
  setEntry,
  signTyped,
  specDomain,
  splitSig,
  standardTypedData,
  str,
  SECP256K1_N,
  type Party,
} from '../build.ts'
import { AUTH_REFUSED, type Hex, type ServerOutcome, type VectorFile } from '../model.ts'
import { withSpecFields, type OptionsCaseInput } from '../options-case.ts'
import type { OptionsKind } from '../../signing/index.ts'
import { approveStep, FamilyBuilder, nonceCounter, P } from './common.ts'
import { CANCEL_RULE, cancelMsg, po, type CancelKind } from './place-order.ts'

type Enc = {
  comment: string
  flags: string[]
  rules: RuleId[]
  level: 'stated' | 'assumed'
  valid: boolean
  server: ServerOutcome | ServerOutcome[]
  encode: (sig: Hex) => string
}

const MALFORMED: ServerOutcome[] = ['invalid_field', 'signature_verification_failed']

function encodings(): Enc[] {
  const withV = (sig: Hex, f: (v: number) => number) => {
    const { r, s, v } = splitSig(sig)
    return joinSig(r, s, f(v))
  }
  return [
    {
      comment: 'v written as 0/1 instead of 27/28',
      flags: ['VZeroOne'],
      rules: ['SIG-9'],
      level: 'assumed',
      valid: true,
      server: 'accepted',
      encode: (s) => withV(s, (v) => v - 27),
    },
    {
      comment: 'hex digits in upper case',
      flags: ['UppercaseHex'],
      rules: ['SIG-9', 'AGENT-9'],
      level: 'assumed',
      valid: true,
      server: 'accepted',
      encode: (s) => '0x' + s.slice(2).toUpperCase(),
    },
    {
      comment: 'high-s twin (n - s, v flipped)',
      flags: ['HighS'],
      rules: ['SIG-10'],
      level: 'assumed',
      valid: false,
      server: 'signature_verification_failed',
      encode: highS,
    },
    {
      comment: 'high-s twin with v as 0/1',
      flags: ['HighS', 'VZeroOne'],
      rules: ['SIG-10', 'SIG-9'],
      level: 'assumed',
      valid: false,
      server: 'signature_verification_failed',
      encode: (s) => withV(highS(s), (v) => v - 27),
    },
    {
      comment: 'v = 29',
      flags: ['BadV'],
      rules: ['SIG-9'],
      level: 'assumed',
      valid: false,
      server: MALFORMED,
      encode: (s) => withV(s, () => 29),
    },
    {
      comment: 'v = 2',
      flags: ['BadV'],
      rules: ['SIG-9'],
      level: 'assumed',
      valid: false,
      server: MALFORMED,
      encode: (s) => withV(s, () => 2),
    },
    {
      comment: 'v = 37 (EIP-155 style)',
      flags: ['BadV'],
      rules: ['SIG-9'],
      level: 'assumed',
      valid: false,
      server: MALFORMED,
      encode: (s) => withV(s, (v) => v + 10),
    },
    {
      comment: '64-byte compact form (EIP-2098)',
      flags: ['MalformedSignature'],
      rules: ['SIG-9', 'AUTH-7'],
      level: 'assumed',
      valid: false,
      server: MALFORMED,
      encode: compact,
    },
    {
      comment: 'truncated by one hex digit',
      flags: ['MalformedSignature'],
      rules: ['SIG-9', 'AUTH-7'],
      level: 'assumed',
      valid: false,
      server: MALFORMED,
      encode: (s) => s.slice(0, -1),
    },
    {
      comment: 'truncated by one byte',
      flags: ['MalformedSignature'],
      rules: ['SIG-9', 'AUTH-7'],
      level: 'assumed',
      valid: false,
      server: MALFORMED,
      encode: (s) => s.slice(0, -2),
    },
    {
      comment: 'one extra byte',
      flags: ['MalformedSignature'],
      rules: ['SIG-9', 'AUTH-7'],
      level: 'assumed',
      valid: false,
      server: MALFORMED,
      encode: (s) => s + '00',
    },
    {
      comment: 'a non-hex digit',
      flags: ['MalformedSignature'],
      rules: ['SIG-9', 'AUTH-7'],
      level: 'assumed',
      valid: false,
      server: MALFORMED,
      encode: (s) => s.slice(0, 10) + 'g' + s.slice(11),
    },
    {
      comment: 'no 0x prefix',
      flags: ['MalformedSignature'],
      rules: ['SIG-9', 'AUTH-7', 'PO-8'],
      level: 'stated',
      valid: false,
      server: MALFORMED,
      encode: (s) => s.slice(2),
    },
    {
      comment: '0X prefix (upper case X)',
      flags: ['MalformedSignature'],
      rules: ['SIG-9', 'AUTH-7', 'PO-8'],
      level: 'assumed',
      valid: false,
      server: MALFORMED,
      encode: (s) => '0X' + s.slice(2),
    },
    {
      comment: 'the empty string',
      flags: ['MalformedSignature'],
      rules: ['AUTH-1', 'AUTH-7'],
      level: 'stated',
      valid: false,
      server: MALFORMED,
      encode: () => '',
    },
    {
      comment: 'just 0x',
      flags: ['MalformedSignature'],
      rules: ['AUTH-1', 'AUTH-7'],
      level: 'stated',
      valid: false,
      server: MALFORMED,
      encode: () => '0x',
    },
    {
      comment: 'r = 0',
      flags: ['InvalidScalar'],
      rules: ['SIG-8'],
      level: 'stated',
      valid: false,
      server: MALFORMED,
      encode: (s) => joinSig(0n, splitSig(s).s, splitSig(s).v),
    },
    {
      comment: 's = 0',
      flags: ['InvalidScalar'],
      rules: ['SIG-8'],
      level: 'stated',
      valid: false,
      server: MALFORMED,
      encode: (s) => joinSig(splitSig(s).r, 0n, splitSig(s).v),
    },
    {
      comment: 'r = n (the curve order)',
      flags: ['InvalidScalar'],
      rules: ['SIG-8'],
      level: 'stated',
      valid: false,
      server: MALFORMED,
      encode: (s) => joinSig(SECP256K1_N, splitSig(s).s, splitSig(s).v),
    },
    {
      comment: 'all 65 bytes zero',
      flags: ['InvalidScalar'],
      rules: ['SIG-8'],
      level: 'stated',
      valid: false,
      server: MALFORMED,
      encode: () => '0x' + '00'.repeat(65),
    },
  ]
}

/** The first nonce from `start` whose signature has the wanted v (so both recovery ids are covered). */
async function nonceWithV(
  spec: VectorsContract,
  kind: OptionsKind,
  msg: (n: string) => Record<string, string>,
  variant: string,
  signer: Party,
  v: 27 | 28,
  start: number,
): Promise<string> {
  for (let n = start; ; n++) {
    const td = standardTypedData(spec, variant, specDomain(spec, 'options'), withSpecFields(spec, kind, msg(String(n))))
    const { signature } = await signTyped(td, signer.key)
    if (splitSig(signature).v === v) return String(n)
  }
}

export async function signatureEncoding(spec: VectorsContract): Promise<VectorFile> {
  const b = new FamilyBuilder(spec, 'signature-encoding', 'secp256k1 signature encodings of EIP-712 options messages', [
    'One signed message per group, its signature written in the body in different encodings.',
    'v 0/1 and upper-case hex are accepted; high-s, bad v, wrong length, non-hex and invalid scalars are refused.',
  ])
  const bases: [string, OptionsCaseInput['kind'], (n: string) => Record<string, string>, string, 27 | 28][] = [
    ['PlaceOrder with v = 27', 'PlaceOrder', (n) => po({ nonce: n, clientId: 'sig-27' }), 'PlaceOrder', 27],
    ['PlaceOrder with v = 28', 'PlaceOrder', (n) => po({ nonce: n, clientId: 'sig-28' }), 'PlaceOrder', 28],
    ['CancelOrder', 'CancelOrder', (n) => ({ wallet: P.wallet.address, orderId: '42', nonce: n }), 'CancelOrder', 27],
  ]
  let start = 6000
  for (const [title, kind, msg, variant, v] of bases) {
    b.group(`Signature${variant}${v}`, kind, title)
    const nonce = await nonceWithV(spec, kind, msg, variant, P.wallet, v, start)
    start += 100
    const sigRules: RuleId[] = kind === 'PlaceOrder' ? ['SIG-1'] : ['SIG-3']
    const okServer: ServerOutcome | ServerOutcome[] = kind === 'PlaceOrder' ? 'accepted' : ['accepted', 'rejected']
    await b.options({
      comment: `${title}: canonical 65-byte signature`,
      rules: [...sigRules, 'SIG-8', 'SIG-9', 'SIG-11'],
      flags: ['Valid'],
      result: 'valid',
      server: okServer,
      kind,
      message: msg(nonce),
      signer: P.wallet,
    })
    for (const e of encodings()) {
      await b.options({
        comment: `${title}: ${e.comment}`,
        rules: [...e.rules, ...sigRules],
        flags: e.flags,
        level: e.level,
        result: e.valid ? 'valid' : 'invalid',
        server: e.valid ? okServer : e.server,
        kind,
        message: msg(nonce),
        signer: P.wallet,
        encodeSignature: e.encode,
      })
    }
    await b.options({
      comment: `${title}: a valid signature of the same wallet over another nonce`,
      rules: ['SIGFAIL-3', 'AUTH-1', ...sigRules],
      flags: ['WrongSignature'],
      result: 'invalid',
      server: AUTH_REFUSED,
      kind,
      message: msg(String(Number(nonce) + 1)),
      signer: P.wallet,
      tamperBody: (entries) => setEntry(entries, 'nonce', raw(nonce)),
    })
  }
  b.group('SignatureApproveAgent', 'ApproveAgent', 'ApproveAgent signature encodings')
  const approve = { agent: P.agentB.address, nonce: '6900' }
  for (const e of encodings().filter((x) => /0\/1 instead|high-s twin \(|compact|no 0x/.test(x.comment))) {
    await b.options({
      comment: `ApproveAgent: ${e.comment}`,
      rules: [...e.rules, 'SIG-5', 'AGENT-1'],
      flags: e.flags,
      level: e.level,
      result: e.valid ? 'valid' : 'invalid',
      server: e.valid ? 'accepted' : e.server,
      kind: 'ApproveAgent',
      message: approve,
      signer: P.walletB,
      encodeSignature: e.encode,
    })
  }
  return b.build()
}

// ---------------------------------------------------------------- cancels

export async function cancelFamily(spec: VectorsContract): Promise<VectorFile> {
  const b = new FamilyBuilder(spec, 'cancel', 'EIP-712 CancelOrder and CancelOrderByClientId', [
    'Cancels by order ID (orderId signed as a string) and by client order ID (which may be empty).',
    'The orders need not exist: a correct request passes authentication and is then canceled or rejected.',
  ])
  const next = nonceCounter(7000)
  const cancelOk: ServerOutcome[] = ['accepted', 'rejected']
  b.group('CancelOrder', 'CancelOrder', 'cancel by order ID')
  for (const orderId of ['1', '42', '18446744073709551615', '99999999999999999999999', 'ord-7f3a', '注文-1']) {
    await b.options({
      comment: `order ID "${orderId}" signed as a string`,
      rules: ['SIG-3', 'EP-2', 'AUTH-1', 'SIG-8'],
      flags: /^[0-9a-z-]+$/.test(orderId) ? ['Valid'] : ['Valid', 'UnicodeString'],
      result: 'valid',
      server: cancelOk,
      kind: 'CancelOrder',
      message: { wallet: P.wallet.address, orderId, nonce: next() },
      signer: P.wallet,
    })
  }
  const setup = [await approveStep(spec, P.wallet, P.agent.address, 2n)]
  const agentSigned = (kind: CancelKind) =>
    b.options({
      comment: `agent-signed ${kind} for the trading wallet`,
      rules: [CANCEL_RULE[kind], 'AUTH-3', 'AGENT-3'],
      flags: ['Valid', 'AgentSigned'],
      result: 'valid',
      server: cancelOk,
      kind,
      message: cancelMsg(kind, { nonce: next() }),
      signer: P.agent,
      wallet: P.wallet.address,
      setup,
    })
  /** The cancel's identifying field changed in the body after signing. */
  const tampered = (kind: CancelKind, bodyField: string, sent: string) => {
    const message = cancelMsg(kind, { nonce: next() })
    const signedField = kind === 'CancelOrder' ? 'orderId' : 'clientId'
    return b.options({
      comment: `${signedField} "${message[signedField]}" signed, ${bodyField} "${sent}" sent`,
      rules: [CANCEL_RULE[kind], 'SIGFAIL-2'],
      flags: ['TamperedField'],
      result: 'invalid',
      server: AUTH_REFUSED,
      kind,
      message,
      signer: P.wallet,
      tamperBody: (e) => setEntry(e, bodyField, str(sent)),
    })
  }
  await agentSigned('CancelOrder')
  for (const [signed, sent] of [
    ['42', '42'],
    ['18446744073709551615', '18446744073709551615'],
    ['42', '42.0'],
  ]) {
    await b.options({
      comment: `orderId "${signed}" signed as a string, order_id sent as the JSON number ${sent}`,
      rules: ['SIG-3', 'EP-9'],
      flags: ['NumericOrderId'],
      level: 'assumed',
      result: 'invalid',
      server: ['invalid_field', ...AUTH_REFUSED],
      kind: 'CancelOrder',
      message: { wallet: P.wallet.address, orderId: signed!, nonce: next() },
      signer: P.wallet,
      tamperBody: (e) => setEntry(e, 'order_id', raw(sent!)),
    })
  }
  await tampered('CancelOrder', 'order_id', '43')
  await b.options({
    comment: 'empty order ID (the body schema needs at least one character)',
    rules: ['SIG-3', 'EP-9'],
    flags: ['EmptyClientId'],
    level: 'assumed',
    result: 'invalid',
    server: ['invalid_field', 'rejected'],
    kind: 'CancelOrder',
    message: { wallet: P.wallet.address, orderId: '', nonce: next() },
    signer: P.wallet,
  })
  await b.options({
    comment: 'both order_id and client_id in one cancel body',
    rules: ['EP-9', 'PO-11'],
    flags: ['UnknownBodyField'],
    level: 'assumed',
    result: 'invalid',
    server: 'invalid_field',
    kind: 'CancelOrder',
    message: { wallet: P.wallet.address, orderId: '42', nonce: next() },
    signer: P.wallet,
    tamperBody: (e) => setEntry(e, 'client_id', str('c-1')),
  })
  await b.options({
    comment: 'CancelOrder signed by a stranger for the wallet',
    rules: ['AUTH-2', 'AUTH-4', 'AUTH-5'],
    flags: ['StrangerSigned'],
    result: 'invalid',
    server: AUTH_REFUSED,
    kind: 'CancelOrder',
    message: { wallet: P.wallet.address, orderId: '42', nonce: next() },
    signer: P.stranger,
    wallet: P.wallet.address,
  })
  b.group('CancelOrderByClientId', 'CancelOrderByClientId', 'cancel by client order ID')
  for (const [clientId, flags] of [
    ['c-1', ['Valid']],
    ['', ['Valid', 'EmptyClientId']],
    ['注文-ünïcödé', ['Valid', 'UnicodeString']],
    ['quote " and \\', ['Valid', 'UnicodeString']],
  ] as const) {
    await b.options({
      comment: `client ID "${clientId}"`,
      rules: ['SIG-4', 'EP-7', 'PO-7'],
      flags: [...flags],
      result: 'valid',
      server: cancelOk,
      kind: 'CancelOrderByClientId',
      message: { wallet: P.wallet.address, clientId, nonce: next() },
      signer: P.wallet,
    })
  }
  await agentSigned('CancelOrderByClientId')
  await tampered('CancelOrderByClientId', 'client_id', 'c-2')
  await b.options({
    comment: 'clientId "" signed, client_id omitted from the body',
    rules: ['SIG-4', 'PO-7', 'EP-9'],
    flags: ['TamperedField', 'EmptyClientId'],
    level: 'assumed',
    result: 'invalid',
    server: ['invalid_field', ...AUTH_REFUSED],
    kind: 'CancelOrderByClientId',
    message: { wallet: P.wallet.address, clientId: '', nonce: next() },
    signer: P.wallet,
    tamperBody: (e) => setEntry(e, 'client_id', undefined),
  })
  return b.build()
}

// ---------------------------------------------------------------- agents

export async function agentFamily(spec: VectorsContract): Promise<VectorFile> {
  const b = new FamilyBuilder(spec, 'agent-approval', 'EIP-712 ApproveAgent and RevokeAgent, and agent authorization', [
    'ApproveAgent/RevokeAgent act for the recovered signer (the owner); the body carries only agent, nonce and signature.',
    'Agent-signed orders need the approval first (setup); an unapproved agent or a stranger is refused.',
  ])
  const next = nonceCounter(8000)
  const agent = P.agentB.address
  b.group('ApproveAgent', 'ApproveAgent', 'owner-signed approvals')
  const forms: [string, string, string[]][] = [
    [agent, 'checksummed agent address', ['Valid']],
    [agent.toLowerCase(), 'agent address in lower case (same digest as checksummed)', ['Valid', 'AddressCase']],
    ['0x' + agent.slice(2).toUpperCase(), 'agent address in upper case hex (same digest)', ['Valid', 'AddressCase']],
  ]
  for (const [a, comment, flags] of forms) {
    await b.options({
      comment: `ApproveAgent, ${comment}`,
      rules: ['SIG-5', 'AGENT-1', 'AGENT-2', 'AGENT-9'],
      flags,
      result: 'valid',
      server: 'accepted',
      kind: 'ApproveAgent',
      message: { agent: a, nonce: '8100' },
      signer: P.walletB,
    })
  }
  await b.options({
    comment: 'ApproveAgent signed with a checksummed agent, body sends it in lower case (same 20 bytes)',
    rules: ['SIG-5', 'AGENT-9'],
    flags: ['Valid', 'AddressCase'],
    level: 'assumed',
    result: 'valid',
    server: 'accepted',
    kind: 'ApproveAgent',
    message: { agent, nonce: next() },
    signer: P.walletB,
    tamperBody: (e) => setEntry(e, 'agent', str(agent.toLowerCase())),
  })
  await b.options({
    comment: 'ApproveAgent body with an extra wallet field (the wallet is the recovered signer, never sent)',
    rules: ['AGENT-1', 'PO-11'],
    flags: ['UnknownBodyField'],
    level: 'assumed',
    result: 'invalid',
    server: 'invalid_field',
    kind: 'ApproveAgent',
    message: { agent, nonce: next() },
    signer: P.walletB,
    tamperBody: (e) => [['wallet', str(P.walletB.address)], ...e],
  })
  await b.options({
    comment: 'ApproveAgent, agent field changed after signing',
    rules: ['SIG-5', 'AGENT-1'],
    flags: ['TamperedField', 'ApprovalMisattributed'],
    result: 'invalid',
    server: ['accepted', ...AUTH_REFUSED],
    kind: 'ApproveAgent',
    message: { agent, nonce: next() },
    signer: P.walletB,
    tamperBody: (e) => setEntry(e, 'agent', str(P.subAgent.address)),
  })
  await b.options({
    comment: 'a wallet approves itself',
    rules: ['AGENT-8'],
    flags: ['SelfApproval'],
    level: 'assumed',
    result: 'invalid',
    server: 'invalid_field',
    kind: 'ApproveAgent',
    message: { agent: P.walletB.address, nonce: next() },
    signer: P.walletB,
  })
  const ownerApproves = [await approveStep(spec, P.wallet, P.agent.address, 3n)]
  await b.options({
    comment: 'the approved agent signs ApproveAgent for a sub-agent: it approves the sub-agent for itself, never for its owner',
    rules: ['AGENT-7', 'AGENT-1'],
    flags: ['AgentForOwner'],
    level: 'assumed',
    result: 'valid',
    server: 'accepted',
    kind: 'ApproveAgent',
    message: { agent: P.subAgent.address, nonce: next() },
    signer: P.agent,
    wallet: P.agent.address,
    setup: ownerApproves,
  })
  b.group('RevokeAgent', 'RevokeAgent', 'revocations')
  for (const [a, comment, flags] of forms.slice(0, 2)) {
    await b.options({
      comment: `RevokeAgent, ${comment} (setup: approved first)`,
      rules: ['SIG-6', 'AGENT-5', 'AGENT-6', 'AGENT-9'],
      flags,
      result: 'valid',
      server: 'accepted',
      kind: 'RevokeAgent',
      message: { agent: a, nonce: next() },
      signer: P.walletB,
      setup: [await approveStep(spec, P.walletB, agent, 4n)],
    })
  }
  await b.options({
    comment: 'RevokeAgent for an agent that was never approved',
    rules: ['SIG-6', 'AGENT-8'],
    flags: ['Valid'],
    level: 'assumed',
    result: 'valid',
    server: ['not_found', 'accepted'],
    kind: 'RevokeAgent',
    message: { agent: P.stranger.address, nonce: next() },
    signer: P.walletB,
  })
  await b.options({
    comment: "the approved agent signs RevokeAgent for its owner's agent: it acts only for itself",
    rules: ['AGENT-7'],
    flags: ['AgentForOwner'],
    level: 'assumed',
    result: 'valid',
    server: ['not_found', 'accepted'],
    kind: 'RevokeAgent',
    message: { agent: P.agent.address, nonce: next() },
    signer: P.agent,
    wallet: P.agent.address,
    setup: ownerApproves,
  })
  b.group('AgentAuthorization', 'PlaceOrder', 'who may sign for a wallet')
  await b.options({
    comment: 'PlaceOrder signed by an agent the wallet never approved',
    rules: ['AUTH-2', 'AUTH-3', 'AUTH-4', 'SIGFAIL-5', 'AUTH-5'],
    flags: ['AgentNotApproved'],
    result: 'invalid',
    server: AUTH_REFUSED,
    kind: 'PlaceOrder',
    message: po({ wallet: P.walletB.address, nonce: next() }),
    signer: P.subAgent,
    wallet: P.walletB.address,
  })
  await b.options({
    comment: 'PlaceOrder for wallet B signed by an agent approved only for wallet A',
    rules: ['AUTH-3', 'AUTH-4', 'SIGFAIL-5', 'AUTH-6'],
    flags: ['AgentNotApproved'],
    result: 'invalid',
    server: AUTH_REFUSED,
    kind: 'PlaceOrder',
    message: po({ wallet: P.walletB.address, nonce: next() }),
    signer: P.agent,
    wallet: P.walletB.address,
    setup: ownerApproves,
  })
  await b.options({
    comment: 'PlaceOrder signed by a stranger for the wallet',
    rules: ['AUTH-2', 'AUTH-4', 'AUTH-5'],
    flags: ['StrangerSigned'],
    result: 'invalid',
    server: AUTH_REFUSED,
    kind: 'PlaceOrder',
    message: po({ nonce: next() }),
    signer: P.stranger,
    wallet: P.wallet.address,
  })
  await b.options({
    comment:
      'PlaceOrder signed by the agent with wallet set to the agent itself (the agent has no funds of its own, but it is its own wallet)',
    rules: ['AUTH-2', 'AUTH-3'],
    flags: ['Valid', 'AgentSigned'],
    result: 'valid',
    server: ['accepted', 'rejected'],
    kind: 'PlaceOrder',
    message: po({ wallet: P.agent.address, nonce: next() }),
    signer: P.agent,
    setup: ownerApproves,
  })
  await b.options({
    comment: 'PlaceOrder by the approved agent with the wallet field changed to wallet B after signing',
    rules: ['AUTH-3', 'SIGFAIL-2'],
    flags: ['TamperedField'],
    result: 'invalid',
    server: AUTH_REFUSED,
    kind: 'PlaceOrder',
    message: po({ nonce: next() }),
    signer: P.agent,
    wallet: P.wallet.address,
    setup: ownerApproves,
    tamperBody: (e) => setEntry(e, 'wallet', str(P.walletB.address)),
  })
  return b.build()
}
