/**
 * PlaceOrder families: valid orders, string-format mismatches, struct mismatches, domain
 * mismatches and nonce cases.
 */
import type { RuleId } from '../../contract/generated/rules.ts'
import type { VectorsContract } from '../model.ts'
import { raw, setEntry, specDomain, str, type BodyEntries, type DomainJson } from '../build.ts'
import { AUTH_REFUSED, type ServerOutcome, type TypedDataJson, type VectorFile } from '../model.ts'
import { approveStep, FamilyBuilder, nonceCounter, P, POW, SYMBOL, SYMBOLS } from './common.ts'

type Msg = Record<string, string>

export function po(o: Msg = {}, omitRoute = false): Msg {
  const m: Msg = {
    wallet: P.wallet.address,
    symbol: SYMBOL,
    side: 'Buy',
    size: '1.5',
    price: '100.0',
    tif: 'gtc',
    route: 'book_only',
    clientId: 'c-1',
    nonce: '1001',
    ...o,
  }
  if (omitRoute) delete m.route
  return m
}

export type CancelKind = 'CancelOrder' | 'CancelOrderByClientId'

/** The rule naming each cancel's signed struct. */
export const CANCEL_RULE: Record<CancelKind, RuleId> = { CancelOrder: 'SIG-3', CancelOrderByClientId: 'SIG-4' }

/** A cancel as signed: the trading wallet's order 42, or its client order ID c-1. */
export function cancelMsg(kind: CancelKind, o: Msg = {}): Msg {
  return kind === 'CancelOrder' ? { wallet: P.wallet.address, orderId: '42', ...o } : { wallet: P.wallet.address, clientId: 'c-1', ...o }
}

const CORE: RuleId[] = ['AUTH-1', 'SVC-3', 'PO-9', 'WIRE-5', 'SIG-8', 'DOM-1', 'DOM-2', 'DOM-3', 'DOM-4', 'DOM-5', 'SIG-7', 'PO-8']
const WITH_ROUTE: RuleId[] = ['SIG-1', 'PO-3', 'PO-6', 'ROUTE-3']
const NO_ROUTE: RuleId[] = ['SIG-2', 'PO-6', 'ROUTE-1', 'ROUTE-4']

export async function placeOrderValid(spec: VectorsContract): Promise<VectorFile> {
  const b = new FamilyBuilder(spec, 'place-order-valid', 'EIP-712 PlaceOrder (options domain)', [
    'Correct PlaceOrder requests: every side, tif and route, route omitted, edge-case client IDs and nonces, direct and agent-signed.',
    'A signer must reproduce digest, signature and body exactly; a verifier must recover the signer; a server must accept them.',
  ])
  const next = nonceCounter(2000)
  b.group('PlaceOrderDirect', 'PlaceOrder', 'signed by the trading wallet')
  for (const side of ['Buy', 'Sell']) {
    for (const tif of ['gtc', 'ioc', 'fok']) {
      for (const route of ['best_execution', 'book_only', 'rfq_only', null]) {
        const omit = route === null
        await b.options({
          comment: `${side} ${tif} ${omit ? 'route omitted (8-field struct)' : `route ${route}`}`,
          rules: [
            ...CORE,
            'AUTH-2',
            'PO-1',
            'PO-2',
            'PO-4',
            ...(omit ? NO_ROUTE : WITH_ROUTE),
            ...(route === 'rfq_only' || tif !== 'gtc' ? (['ERR-11'] satisfies RuleId[]) : []),
            ...(route === 'rfq_only' ? (['PO-12'] satisfies RuleId[]) : []),
          ],
          flags: omit ? ['Valid', 'RouteOmitted'] : ['Valid'],
          result: omit ? 'acceptable' : 'valid',
          // rfq_only passes authentication; the reference server rejects it for lack of makers.
          // An ioc/fok with nothing to fill is authenticated and then REJECTED on business grounds.
          server: omit
            ? tif === 'gtc'
              ? ['accepted', 'invalid_field']
              : ['accepted', 'rejected', 'invalid_field']
            : route === 'rfq_only' || tif !== 'gtc'
              ? ['accepted', 'rejected']
              : 'accepted',
          kind: 'PlaceOrder',
          message: po({ side, tif, ...(omit ? {} : { route }), nonce: next(), clientId: `v-${side}-${tif}-${route ?? 'none'}` }, omit),
          signer: P.wallet,
        })
      }
    }
  }
  b.group('PlaceOrderStrings', 'PlaceOrder', 'client IDs, decimals and symbols at the edges')
  const clientIds: [string, string, string[]][] = [
    ['', 'empty client_id', ['EmptyClientId']],
    ['注文-ünïcödé-🚀', 'non-ASCII client_id (CJK, Latin-1, astral plane)', ['UnicodeString']],
    ['quote " backslash \\ slash /', 'client_id needing JSON escapes', ['UnicodeString']],
    ['tab\tnewline\ncr\r', 'client_id with control characters', ['UnicodeString']],
    ['e\u0301 vs \u00e9', 'client_id with a combining accent next to the precomposed one (not normalized)', ['UnicodeString']],
    [' padded ', 'client_id with leading and trailing spaces (kept as is)', ['UnicodeString']],
    ['x'.repeat(300), 'a 300-character client_id', ['UnicodeString']],
    ['\u2028\u2029', 'client_id with the JSON-vs-JS line separators U+2028/U+2029', ['UnicodeString']],
  ]
  for (const [clientId, comment, flags] of clientIds) {
    for (const omit of [false, true]) {
      await b.options({
        comment: `${comment}${omit ? ', route omitted' : ''}`,
        rules: [...CORE, 'PO-7', ...(omit ? NO_ROUTE : WITH_ROUTE)],
        flags: omit ? ['Valid', ...flags, 'RouteOmitted'] : ['Valid', ...flags],
        result: omit ? 'acceptable' : 'valid',
        server: omit ? ['accepted', 'invalid_field'] : 'accepted',
        kind: 'PlaceOrder',
        message: po({ clientId, nonce: next() }, omit),
        signer: P.wallet,
      })
    }
  }
  const decimals: [string, string][] = [
    ['0.0001', '0.5'],
    ['100', '100'],
    ['100.0', '100.00'],
    ['1.50', '0.10'],
    ['123456789.123456789', '99999999999999999999.99999999999999999999'],
    ['10', '1'],
  ]
  for (const [size, price] of decimals) {
    await b.options({
      comment: `size "${size}" and price "${price}" signed and sent character for character`,
      rules: [...CORE, ...WITH_ROUTE, 'PO-4', 'PO-5'],
      flags: ['Valid'],
      result: 'valid',
      server: 'accepted',
      kind: 'PlaceOrder',
      message: po({ size, price, nonce: next() }),
      signer: P.wallet,
    })
  }
  for (const symbol of SYMBOLS.slice(1)) {
    await b.options({
      comment: `symbol ${symbol}`,
      rules: [...CORE, ...WITH_ROUTE, 'SVC-1'],
      flags: ['Valid'],
      result: 'valid',
      server: 'accepted',
      kind: 'PlaceOrder',
      message: po({ symbol, nonce: next() }),
      signer: P.wallet,
    })
  }
  await b.options({
    comment: 'wallet written in lower case in the message and the body (addresses are 20 bytes)',
    rules: [...CORE, ...WITH_ROUTE, 'AGENT-9'],
    flags: ['Valid', 'AddressCase'],
    result: 'valid',
    server: 'accepted',
    kind: 'PlaceOrder',
    message: po({ wallet: P.wallet.address.toLowerCase(), nonce: next() }),
    signer: P.wallet,
    wallet: P.wallet.address,
  })
  b.group('PlaceOrderNonces', 'PlaceOrder', 'nonces at the uint64 and double boundaries')
  const nonces: [string, string][] = [
    ['0', '0'],
    ['1', '1'],
    [POW(32), '2^32'],
    [(2n ** 53n - 1n).toString(), '2^53-1 (largest exact double integer)'],
    [POW(53), '2^53'],
    [(2n ** 53n + 1n).toString(), '2^53+1 (the first integer a double cannot hold)'],
    [(2n ** 63n).toString(), '2^63 (above int64)'],
    [(2n ** 64n - 2n).toString(), '2^64-2'],
    [(2n ** 64n - 1n).toString(), '2^64-1 (largest uint64)'],
  ]
  for (const [n, what] of nonces) {
    for (const omit of [false, true]) {
      await b.options({
        comment: `nonce ${what}${omit ? ', route omitted' : ''}`,
        rules: [...CORE, 'NONCE-1', 'NONCE-6', 'WIRE-2', ...(omit ? NO_ROUTE : WITH_ROUTE)],
        flags: omit ? ['Valid', 'BoundaryNonce', 'RouteOmitted'] : ['Valid', 'BoundaryNonce'],
        result: omit ? 'acceptable' : 'valid',
        server: omit ? ['accepted', 'invalid_field'] : 'accepted',
        kind: 'PlaceOrder',
        message: po({ nonce: n, clientId: `n-${n}` }, omit),
        signer: P.wallet,
      })
    }
  }
  b.group('PlaceOrderAgent', 'PlaceOrder', 'signed by an approved agent; wallet is the trading wallet')
  const setup = [await approveStep(spec, P.wallet, P.agent.address, 1n)]
  const agentCases: [Msg, boolean, string][] = [
    [{ side: 'Buy', route: 'best_execution' }, false, 'agent-signed Buy'],
    [{ side: 'Sell', tif: 'ioc', route: 'book_only' }, false, 'agent-signed Sell ioc'],
    [{}, true, 'agent-signed, route omitted'],
    [{ clientId: '' }, false, 'agent-signed, empty client_id'],
    [{ nonce: (2n ** 64n - 1n).toString() }, false, 'agent-signed, nonce 2^64-1'],
    [{ nonce: (2n ** 53n + 1n).toString() }, false, 'agent-signed, nonce 2^53+1'],
  ]
  for (const [o, omit, comment] of agentCases) {
    await b.options({
      comment: `${comment} (setup: the wallet approves the agent)`,
      rules: [...CORE, 'AUTH-2', 'AUTH-3', 'AGENT-2', 'AGENT-3', ...(omit ? NO_ROUTE : WITH_ROUTE)],
      flags: omit ? ['Valid', 'AgentSigned', 'RouteOmitted'] : ['Valid', 'AgentSigned'],
      result: omit ? 'acceptable' : 'valid',
      server: omit ? ['accepted', 'invalid_field'] : ['accepted', 'rejected'],
      kind: 'PlaceOrder',
      message: po({ nonce: next(), ...o }, omit),
      signer: P.agent,
      wallet: P.wallet.address,
      setup,
    })
  }
  return b.build()
}

// ---------------------------------------------------------------- string formats

/** (signed, sent) pairs: the body differs from the signed string. */
const MISMATCHES: [string, string][] = [
  ['100.0', '100'],
  ['100', '100.0'],
  ['1.50', '1.5'],
  ['1.5', '1.50'],
  ['0.5', '.5'],
  ['1.5', '01.5'],
  ['100', '1e2'],
  ['100', ' 100'],
  ['100', '100 '],
  ['1', '-1'],
  ['100', ''],
  ['1000', '1,000'],
  ['100', '+100'],
]
const GRAMMAR = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/
/** Strings outside the decimal grammar, signed as they are sent. */
const BAD_DECIMALS = ['1e2', '.5', '-1', ' 100', '100 ', '', '01.5', '+100', '1,000', '0x10', 'NaN', 'Infinity', '1.', '١٠٠']

export async function stringFormat(spec: VectorsContract): Promise<VectorFile> {
  const b = new FamilyBuilder(spec, 'string-format', 'EIP-712 PlaceOrder (options domain)', [
    'size and price are strings, identical in the signed message and the body.',
    'FormatMismatch: the body differs from what was signed (signature must fail). BadDecimal: signed and sent consistently but outside the decimal grammar (field validation must refuse). NumberNotString: a JSON number.',
  ])
  const next = nonceCounter(3000)
  b.group('FormatMismatch', 'PlaceOrder', 'body changed after signing')
  for (const field of ['size', 'price'] as const) {
    for (const [signed, sent] of MISMATCHES) {
      const grammatical = GRAMMAR.test(sent)
      await b.options({
        comment: `${field} "${signed}" signed, "${sent}" sent`,
        rules: ['PO-4', 'SIGFAIL-2', 'SIGFAIL-6', 'SIG-1'],
        flags: ['FormatMismatch'],
        result: 'invalid',
        server: grammatical ? AUTH_REFUSED : ['invalid_field', ...AUTH_REFUSED],
        kind: 'PlaceOrder',
        message: po({ [field]: signed, nonce: next() }),
        signer: P.wallet,
        tamperBody: (e) => setEntry(e, field, str(sent)),
      })
    }
  }
  b.group('BadDecimal', 'PlaceOrder', 'signed and sent alike, outside the decimal grammar')
  for (const field of ['size', 'price'] as const) {
    for (const bad of BAD_DECIMALS) {
      await b.options({
        comment: `${field} "${bad}" signed and sent: the signature holds, the value breaks the decimal grammar`,
        rules: ['PO-10', 'PO-4'],
        flags: ['BadDecimal'],
        level: 'assumed',
        result: 'invalid',
        server: 'invalid_field',
        kind: 'PlaceOrder',
        message: po({ [field]: bad, nonce: next() }),
        signer: P.wallet,
      })
    }
  }
  b.group('NumberNotString', 'PlaceOrder', 'JSON numbers where strings are signed')
  const numbers: [string, string][] = [
    ['100', '100'],
    ['100.0', '100.0'],
    ['1.5', '1.5'],
    ['100', '1e2'],
  ]
  for (const field of ['size', 'price'] as const) {
    for (const [signed, sent] of numbers) {
      await b.options({
        comment: `${field} signed as the string "${signed}", sent as the JSON number ${sent}`,
        rules: ['PO-5', 'SIGFAIL-1', 'PO-10'],
        flags: ['NumberNotString'],
        result: 'invalid',
        // The seed lists a number here among the causes of `Signature verification failed`; another refusal code only warns.
        server: 'signature_verification_failed',
        kind: 'PlaceOrder',
        message: po({ [field]: signed, nonce: next() }),
        signer: P.wallet,
        tamperBody: (e) => setEntry(e, field, raw(sent)),
      })
    }
  }
  return b.build()
}

// ---------------------------------------------------------------- struct mismatches

function retype(td: TypedDataJson, field: string, type: string): TypedDataJson {
  return { ...td, types: { ...td.types, [td.primaryType]: td.types[td.primaryType]!.map((f) => (f.name === field ? { ...f, type } : f)) } }
}

function rename(td: TypedDataJson, from: string, to: string): TypedDataJson {
  const message: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(td.message)) message[k === from ? to : k] = v
  return {
    ...td,
    message,
    types: { ...td.types, [td.primaryType]: td.types[td.primaryType]!.map((f) => (f.name === from ? { ...f, name: to } : f)) },
  }
}

function reorder(td: TypedDataJson, order: (names: string[]) => string[]): TypedDataJson {
  const fields = td.types[td.primaryType]!
  const names = order(fields.map((f) => f.name))
  return { ...td, types: { ...td.types, [td.primaryType]: names.map((n) => fields.find((f) => f.name === n)!) } }
}

function swap(a: string, b: string) {
  return (names: string[]) => names.map((n) => (n === a ? b : n === b ? a : n))
}

function moveTo(name: string, at: 'first' | 'last') {
  return (names: string[]) => {
    const rest = names.filter((n) => n !== name)
    return at === 'first' ? [name, ...rest] : [...rest, name]
  }
}

export async function structMismatch(spec: VectorsContract): Promise<VectorFile> {
  const b = new FamilyBuilder(spec, 'struct-mismatch', 'EIP-712 PlaceOrder and cancels (options domain)', [
    'The signed struct differs from the contract, or route presence in body and struct disagree.',
    'Every case must be refused; where the body itself breaks the schema, invalid_field is accepted too.',
  ])
  const next = nonceCounter(4000)
  b.group('RouteStruct', 'PlaceOrder', 'route presence in body and struct disagree')
  for (const route of ['best_execution', 'book_only', 'rfq_only']) {
    await b.options({
      comment: `route ${route} signed (9-field struct) but left out of the body`,
      rules: ['PO-6', 'SIG-1', 'SIG-2'],
      flags: ['RouteStructMismatch'],
      result: 'invalid',
      server: [...AUTH_REFUSED, 'invalid_field'],
      kind: 'PlaceOrder',
      message: po({ route, nonce: next() }),
      signer: P.wallet,
      tamperBody: (e) => setEntry(e, 'route', undefined),
    })
    await b.options({
      comment: `signed without route (8-field struct), body sends route ${route}`,
      rules: ['PO-6', 'SIG-1', 'SIG-2'],
      flags: ['RouteStructMismatch'],
      result: 'invalid',
      server: AUTH_REFUSED,
      kind: 'PlaceOrder',
      message: po({ nonce: next() }, true),
      signer: P.wallet,
      tamperBody: (e) => setEntry(e, 'route', str(route)),
    })
  }
  await b.options({
    comment: 'route signed as the empty string in the 9-field struct, omitted from the body',
    rules: ['PO-6', 'PO-3'],
    flags: ['RouteStructMismatch'],
    result: 'invalid',
    server: [...AUTH_REFUSED, 'invalid_field'],
    kind: 'PlaceOrder',
    message: po({ route: '', nonce: next() }),
    signer: P.wallet,
    tamperBody: (e) => setEntry(e, 'route', undefined),
  })
  b.group('WrongStruct', 'PlaceOrder', 'renamed, retyped, reordered or extra fields')
  const wrong: [string, (td: TypedDataJson) => TypedDataJson, boolean][] = [
    ['clientId signed under the name client_id', (td) => rename(td, 'clientId', 'client_id'), false],
    ['clientId signed under the name clientID', (td) => rename(td, 'clientId', 'clientID'), false],
    ['clientId signed under the name cloid', (td) => rename(td, 'clientId', 'cloid'), false],
    ['clientId signed under the name clientOrderId', (td) => rename(td, 'clientId', 'clientOrderId'), true],
    ['nonce typed uint256 instead of uint64', (td) => retype(td, 'nonce', 'uint256'), false],
    ['nonce typed uint256, route omitted', (td) => retype(td, 'nonce', 'uint256'), true],
    ['nonce typed int64', (td) => retype(td, 'nonce', 'int64'), false],
    ['wallet typed string instead of address', (td) => retype(td, 'wallet', 'string'), false],
    ['size and price swapped in the struct', (td) => reorder(td, swap('size', 'price')), false],
    ['nonce moved to the front of the struct', (td) => reorder(td, moveTo('nonce', 'first')), false],
    ['route moved to the end of the struct', (td) => reorder(td, moveTo('route', 'last')), false],
    ['fields in alphabetical order', (td) => reorder(td, (n) => [...n].sort()), false],
    ['wallet moved to the end, route omitted', (td) => reorder(td, moveTo('wallet', 'last')), true],
    [
      'primary type named Order instead of PlaceOrder',
      (td) => ({ ...td, primaryType: 'Order', types: { EIP712Domain: td.types.EIP712Domain!, Order: td.types[td.primaryType]! } }),
      false,
    ],
    [
      'an extra field reduceOnly (bool false) in the struct',
      (td) => ({
        ...td,
        message: { ...td.message, reduceOnly: false },
        types: { ...td.types, [td.primaryType]: [...td.types[td.primaryType]!, { name: 'reduceOnly', type: 'bool' }] },
      }),
      false,
    ],
  ]
  for (const [comment, mutate, omit] of wrong) {
    await b.options({
      comment,
      rules: ['SIG-7', omit ? 'SIG-2' : 'SIG-1', 'AUTH-1'],
      flags: ['WrongStruct'],
      result: 'invalid',
      server: AUTH_REFUSED,
      kind: 'PlaceOrder',
      message: po({ nonce: next() }, omit),
      signer: P.wallet,
      mutateTypedData: mutate,
    })
  }
  b.group('WrongDomainStruct', 'PlaceOrder', 'EIP712Domain with other fields')
  const dom = specDomain(spec, 'options')
  const { verifyingContract: _vc, ...noContract } = dom
  void _vc
  for (const omit of [false, true]) {
    await b.options({
      comment: `EIP712Domain without verifyingContract${omit ? ', route omitted' : ''}`,
      rules: ['DOM-5', 'DOM-4', 'SIGFAIL-4', ...(omit ? (['SIG-2'] satisfies RuleId[]) : [])],
      flags: ['WrongDomain'],
      result: 'invalid',
      server: AUTH_REFUSED,
      kind: 'PlaceOrder',
      message: po({ nonce: next() }, omit),
      signer: P.wallet,
      domain: noContract as DomainJson,
    })
  }
  await b.options({
    comment: 'EIP712Domain with an extra salt field',
    rules: ['DOM-5', 'SIGFAIL-4'],
    flags: ['WrongDomain'],
    result: 'invalid',
    server: AUTH_REFUSED,
    kind: 'PlaceOrder',
    message: po({ nonce: next() }),
    signer: P.wallet,
    mutateTypedData: (td) => ({
      ...td,
      domain: { ...td.domain, salt: '0x' + '00'.repeat(31) + '01' },
      types: { ...td.types, EIP712Domain: [...td.types.EIP712Domain!, { name: 'salt', type: 'bytes32' }] },
    }),
  })
  b.group('CancelStruct', 'CancelOrder', 'cancel structs with wrong fields')
  const cancelStructs: [CancelKind, string, ServerOutcome[], (td: TypedDataJson) => TypedDataJson][] = [
    [
      'CancelOrder',
      'with orderId typed uint256 instead of string',
      [...AUTH_REFUSED, 'invalid_field'],
      (td) => retype(td, 'orderId', 'uint256'),
    ],
    // Only an auth refusal: a server that hashes the nonce as uint256 authenticates it and answers REJECTED (no such order).
    ['CancelOrder', 'with nonce typed uint256', AUTH_REFUSED, (td) => retype(td, 'nonce', 'uint256')],
    ['CancelOrderByClientId', 'with clientId signed under the name cloid', AUTH_REFUSED, (td) => rename(td, 'clientId', 'cloid')],
    ['CancelOrder', 'with orderId and wallet swapped in the struct', AUTH_REFUSED, (td) => reorder(td, swap('wallet', 'orderId'))],
  ]
  for (const [kind, what, server, mutate] of cancelStructs) {
    await b.options({
      comment: `${kind} ${what}`,
      rules: [CANCEL_RULE[kind], 'SIG-7'],
      flags: ['WrongStruct'],
      result: 'invalid',
      server,
      kind,
      message: cancelMsg(kind, { nonce: next() }),
      signer: P.wallet,
      mutateTypedData: mutate,
    })
  }
  b.group('BodyShape', 'PlaceOrder', 'a correct signature, a body outside the schema')
  const bodyShape: [string, (e: BodyEntries) => BodyEntries, RuleId[]][] = [
    ['the body names client_id as clientId', (e) => e.map(([k, v]) => [k === 'client_id' ? 'clientId' : k, v]), ['PO-11', 'PO-7']],
    ['the body has an extra field reduce_only', (e) => setEntry(e, 'reduce_only', raw('false')), ['PO-11']],
    ['the body has route null', (e) => setEntry(e, 'route', raw('null')), ['ROUTE-5', 'PO-3']],
  ]
  for (const [comment, tamper, rules] of bodyShape) {
    await b.options({
      comment,
      rules,
      flags: ['UnknownBodyField'],
      level: 'assumed',
      result: 'invalid',
      server: comment.includes('route null') ? ['invalid_field', ...AUTH_REFUSED] : 'invalid_field',
      kind: 'PlaceOrder',
      message: comment.includes('route null') ? po({ nonce: next() }, true) : po({ nonce: next() }),
      signer: P.wallet,
      tamperBody: tamper,
    })
  }
  return b.build()
}

// ---------------------------------------------------------------- domains

export async function domainMismatch(spec: VectorsContract): Promise<VectorFile> {
  const b = new FamilyBuilder(spec, 'domain-mismatch', 'EIP-712 options messages under wrong domains', [
    "Options messages signed under a domain other than the contract's: Service / 1 / 999 / zero address.",
    'A signer asked for such a domain must still sign it exactly (the domain replaces the default whole); a server must refuse the result.',
  ])
  const dom = specDomain(spec, 'options')
  const perp = specDomain(spec, 'perps')
  const next = nonceCounter(5000)
  const variants: [string, DomainJson | ((td: TypedDataJson) => TypedDataJson), RuleId[]][] = [
    ['chainId 1 (Ethereum mainnet)', { ...dom, chainId: 1 }, ['DOM-3', 'SIGFAIL-4']],
    ['chainId 998', { ...dom, chainId: 998 }, ['DOM-3', 'SIGFAIL-4']],
    ['chainId 1337 (the perp chain)', { ...dom, chainId: perp.chainId as number }, ['DOM-3', 'SIGFAIL-4', 'PERP-3']],
    ['chainId 0', { ...dom, chainId: 0 }, ['DOM-3', 'SIGFAIL-4']],
    [
      'chainId "999" hashed as a string (EIP712Domain chainId typed string)',
      (td) => ({
        ...td,
        domain: { ...td.domain, chainId: String(dom.chainId) },
        types: { ...td.types, EIP712Domain: td.types.EIP712Domain!.map((f) => (f.name === 'chainId' ? { ...f, type: 'string' } : f)) },
      }),
      ['DOM-3', 'DOM-5', 'SIGFAIL-4'],
    ],
    ['name in lower case', { ...dom, name: String(dom.name).toLowerCase() }, ['DOM-1', 'SIGFAIL-4']],
    ['name in upper case', { ...dom, name: String(dom.name).toUpperCase() }, ['DOM-1', 'SIGFAIL-4']],
    ['name with a trailing space', { ...dom, name: `${dom.name} ` }, ['DOM-1', 'SIGFAIL-4']],
    ['name of the perp domain (Exchange)', { ...dom, name: perp.name! }, ['DOM-1', 'SIGFAIL-4', 'PERP-3']],
    ['the whole perp domain (Exchange / 1 / 1337)', { ...perp }, ['DOM-1', 'DOM-3', 'SIGFAIL-4', 'PERP-3']],
    ['version "2"', { ...dom, version: '2' }, ['DOM-2', 'VER-1', 'SIGFAIL-4']],
    ['version "1.0"', { ...dom, version: '1.0' }, ['DOM-2', 'VER-1', 'SIGFAIL-4']],
    ['verifyingContract 0x…01', { ...dom, verifyingContract: '0x0000000000000000000000000000000000000001' }, ['DOM-4', 'SIGFAIL-4']],
    [
      'verifyingContract 0xCcCC…cC (the EIP-712 example contract)',
      { ...dom, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
      ['DOM-4', 'SIGFAIL-4'],
    ],
    [
      'no name field in EIP712Domain',
      (() => {
        const { name: _n, ...rest } = dom
        void _n
        return rest
      })(),
      ['DOM-5', 'SIGFAIL-4'],
    ],
  ]
  const apply = (v: DomainJson | ((td: TypedDataJson) => TypedDataJson)) =>
    typeof v === 'function' ? { mutateTypedData: v } : { domain: v }
  b.group('PlaceOrderDomain', 'PlaceOrder', 'PlaceOrder under a wrong domain')
  for (const [comment, v, rules] of variants) {
    for (const omit of [false, true]) {
      if (omit && !/chainId 1 |version "2"|perp domain/.test(comment)) continue
      await b.options({
        comment: `PlaceOrder, ${comment}${omit ? ', route omitted' : ''}`,
        rules: [...rules, omit ? 'SIG-2' : 'SIG-1'],
        flags: comment.includes('perp') || comment.includes('Exchange') ? ['WrongDomain', 'PerpDomainOnOptions'] : ['WrongDomain'],
        result: 'invalid',
        server: AUTH_REFUSED,
        kind: 'PlaceOrder',
        message: po({ nonce: next() }, omit),
        signer: P.wallet,
        ...apply(v),
      })
    }
  }
  for (const kind of ['CancelOrder', 'CancelOrderByClientId'] as const) {
    b.group(`${kind}Domain`, kind, `${kind} under a wrong domain`)
    for (const [comment, v, rules] of variants.filter(([c]) => /chainId 1 |chainId 1337|perp domain|version "2"|lower case/.test(c))) {
      await b.options({
        comment: `${kind}, ${comment}`,
        rules: [...rules, CANCEL_RULE[kind]],
        flags: ['WrongDomain'],
        result: 'invalid',
        server: AUTH_REFUSED,
        kind,
        message: cancelMsg(kind, { nonce: next() }),
        signer: P.wallet,
        ...apply(v),
      })
    }
  }
  for (const kind of ['ApproveAgent', 'RevokeAgent'] as const) {
    b.group(`${kind}Domain`, kind, `${kind} under a wrong domain: recovers to another owner`)
    for (const [comment, v, rules] of variants.filter(([c]) => /chainId 1 |chainId 1337|version "2"/.test(c))) {
      await b.options({
        comment: `${kind}, ${comment}: the server recovers some other owner and cannot tell`,
        rules: [...rules, kind === 'ApproveAgent' ? 'SIG-5' : 'SIG-6', 'AGENT-1'],
        flags: ['WrongDomain', 'ApprovalMisattributed'],
        result: 'invalid',
        server: kind === 'ApproveAgent' ? ['accepted', ...AUTH_REFUSED] : ['not_found', 'accepted', ...AUTH_REFUSED],
        kind,
        message: { agent: P.agentB.address, nonce: next() },
        signer: P.wallet,
        ...apply(v),
      })
    }
  }
  return b.build()
}

// ---------------------------------------------------------------- nonces

export async function nonceFamily(spec: VectorsContract): Promise<VectorFile> {
  const b = new FamilyBuilder(spec, 'nonce', 'EIP-712 options messages: nonce handling', [
    'The nonce is a JSON integer in 0..2^64-1 that must reach the server digit for digit.',
    'NonceMismatch and PrecisionLoss: the body nonce differs from the signed one. BadNonceForm: the body nonce is not a JSON integer in range.',
  ])
  b.group('NonceMismatch', 'PlaceOrder', 'body nonce is not the signed nonce')
  const off: [string, string, string][] = [
    ['5', '6', 'signed N, sent N+1'],
    ['6', '5', 'signed N, sent N-1'],
    [POW(32), (2n ** 32n + 1n).toString(), 'signed 2^32, sent 2^32+1'],
    [(2n ** 64n - 2n).toString(), (2n ** 64n - 1n).toString(), 'signed 2^64-2, sent 2^64-1'],
    ['7', '0', 'signed 7, sent 0'],
  ]
  for (const [signed, sent, comment] of off) {
    await b.options({
      comment,
      rules: ['SIGFAIL-3', 'NONCE-1', 'SIGFAIL-6'],
      flags: ['NonceMismatch'],
      result: 'invalid',
      server: AUTH_REFUSED,
      kind: 'PlaceOrder',
      message: po({ nonce: signed, clientId: `nm-${signed}` }),
      signer: P.wallet,
      tamperBody: (e) => setEntry(e, 'nonce', raw(sent)),
    })
  }
  b.group('PrecisionLoss', 'PlaceOrder', 'the nonce went through a double on the way')
  const lossy: [bigint, string][] = [
    [2n ** 53n + 1n, '2^53+1'],
    [2n ** 53n + 3n, '2^53+3'],
    [2n ** 63n + 1n, '2^63+1'],
    [2n ** 64n - 1n, '2^64-1'],
    [12345678901234567891n, '12345678901234567891'],
  ]
  for (const [n, what] of lossy) {
    // What JSON.parse then JSON.stringify does to the integer: a double, printed back.
    const sent = String(Number(n))
    await b.options({
      comment: `signed ${what} = ${n}, sent ${sent} (the value after a trip through a double)`,
      rules: ['WIRE-2', 'NONCE-1', 'NONCE-6', 'SIGFAIL-3'],
      flags: ['PrecisionLoss'],
      result: 'invalid',
      server: /e|\./.test(sent) || BigInt(sent) >= 2n ** 64n ? ['invalid_field', ...AUTH_REFUSED] : AUTH_REFUSED,
      kind: 'PlaceOrder',
      message: po({ nonce: n.toString(), clientId: `pl-${what}` }),
      signer: P.wallet,
      tamperBody: (e) => setEntry(e, 'nonce', raw(sent)),
    })
  }
  await b.options({
    comment: 'CancelOrder signed with nonce 2^53+1, sent 2^53',
    rules: ['WIRE-2', 'NONCE-1', 'SIGFAIL-3', 'SIG-3'],
    flags: ['PrecisionLoss'],
    result: 'invalid',
    server: AUTH_REFUSED,
    kind: 'CancelOrder',
    message: { wallet: P.wallet.address, orderId: '42', nonce: (2n ** 53n + 1n).toString() },
    signer: P.wallet,
    tamperBody: (e) => setEntry(e, 'nonce', raw(POW(53))),
  })
  b.group('BadNonceForm', 'PlaceOrder', 'the body nonce is not a JSON integer in range')
  const forms: [string, string][] = [
    ['"5"', 'a JSON string'],
    ['-5', 'negative'],
    ['5.0', 'a fraction form'],
    ['5.5', 'fractional'],
    ['5e0', 'exponent form'],
    ['0.5e1', 'exponent form with a fraction'],
    [POW(64), '2^64 (out of range)'],
    ['100000000000000000000', '10^20 (out of range)'],
    ['null', 'null'],
    ['[5]', 'an array'],
  ]
  for (const [sent, what] of forms) {
    await b.options({
      comment: `nonce 5 signed, body nonce ${sent} (${what})`,
      rules: ['NONCE-1', 'NONCE-6'],
      flags: ['BadNonceForm'],
      level: 'assumed',
      result: 'invalid',
      server: ['invalid_field', ...(sent === '5.0' || sent === '5e0' ? AUTH_REFUSED : [])],
      kind: 'PlaceOrder',
      message: po({ nonce: '5', clientId: `bf-${what}` }),
      signer: P.wallet,
      tamperBody: (e) => setEntry(e, 'nonce', raw(sent)),
    })
  }
  return b.build()
}
