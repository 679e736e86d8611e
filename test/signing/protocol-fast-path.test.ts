/**
 * The protocol's fast paths against lossless-json itself: `parseLossless` (native JSON.parse
 * when a round trip proves nothing was lost) must give lossless-json's tree or its error, and
 * `answerLine` (fast parse, fast answer writer) must write, byte for byte, the answer that
 * lossless-json's parse and stringify around `answerRequest` write. Inputs include big and
 * negative integers, fractions and exponents, `-0`, escapes, duplicate keys, `__proto__` and
 * whitespace variants (Python's `", "`/`": "` separators among them).
 */
import fc from 'fast-check'
import { isLosslessNumber, parse as losslessParse, stringify as losslessStringify } from 'lossless-json'
import { describe, expect, it } from 'vitest'
import { propertyRuns } from '../helpers/mutation.ts'
import { answerLine, answerRequest, serializeAnswer, type ProtocolAnswer } from '../../src/signing/index.ts'
import { parseLossless } from '../../src/signing/lossless.ts'
import { signing, signOptions } from '../helpers/shipped.ts'
import { keyArb, kindMessageArb } from './arbitraries.ts'
import { nodeArb, numberText, outcome, stringText, styleArb, write, type Node } from './json-text.ts'

describe('parseLossless', () => {
  it("gives lossless-json's tree or its exact error on any text", () => {
    fc.assert(
      fc.property(nodeArb, styleArb, (node, style) => {
        const text = `${style.pad}${write(node, style)}${style.pad}`
        expect(outcome(parseLossless, text)).toEqual(outcome(losslessParse, text))
      }),
      { numRuns: propertyRuns(3000), seed: 20261123 },
    )
  })

  it('keeps the digits the fast path cannot (and takes the fast path for canonical text)', () => {
    for (const text of ['{"nonce":18446744073709551615}', '{"a":1.0}', '{"a":-0}', '{"a":1e3}', '{"a":1,"a":1}', '[9007199254740993]']) {
      expect(outcome(parseLossless, text)).toEqual(outcome(losslessParse, text))
    }
    const tree = parseLossless('{"id":7,"__proto__":{"x":1}}') as Record<string, unknown>
    expect(Object.getPrototypeOf(tree)).toBe(Object.prototype)
    expect(Object.keys(tree)).toEqual(['id', '__proto__'])
    expect(isLosslessNumber(tree.id)).toBe(true)
    expect(() => parseLossless('{"a":1,"a":2}')).toThrow(/Duplicate key 'a'/)
    expect(() => parseLossless('{"a":')).toThrow()
  })
})

/** The reference: lossless-json's parse and stringify around answerRequest (the protocol before its fast paths). */
async function reference(line: string): Promise<string | undefined> {
  if (line.trim() === '') return undefined
  let req: unknown
  try {
    req = losslessParse(line)
  } catch (err) {
    return losslessStringify({ error: `invalid JSON: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}` })
  }
  return losslessStringify(await answerRequest(signing, req))
}

const idArb = fc.oneof(numberText, stringText, fc.constantFrom('null', 'true', '[1,2]', '{"n":18446744073709551615}', '{"__proto__":1}'))

/** A realistic request as entries (so that keys can be repeated or reordered), its nonce a JSON integer. */
const requestArb = fc
  .tuple(kindMessageArb, keyArb, fc.constantFrom('sign', 'verify'), idArb, fc.boolean())
  .chain(([{ kind, message }, key, op, id, omitId]) =>
    fc
      .tuple(
        fc.constant({ kind, message, key, op, id, omitId }),
        fc.constantFrom<'none' | 'bigNonce' | 'fracNonce' | 'dupKind' | 'dupMessageKey' | 'protoInMessage' | 'escapedKey'>(
          'none',
          'none',
          'bigNonce',
          'fracNonce',
          'dupKind',
          'dupMessageKey',
          'protoInMessage',
          'escapedKey',
        ),
        styleArb,
      )
      .map(([r, twist, style]) => ({ ...r, twist, style })),
  )

describe('answerLine', () => {
  it('writes, byte for byte, what lossless-json would on generated requests', async () => {
    const samples = fc.sample(requestArb, { numRuns: propertyRuns(300), seed: 20261123 })
    for (const r of samples) {
      const msg: [string, Node][] = Object.entries(r.message).map(([k, v]) => [
        k,
        { t: 'raw', text: typeof v === 'bigint' ? v.toString() : JSON.stringify(v) },
      ])
      if (r.twist === 'bigNonce') msg.push(['nonce', { t: 'raw', text: '184467440737095516150' }])
      if (r.twist === 'fracNonce') for (const e of msg) if (e[0] === 'nonce') e[1] = { t: 'raw', text: '1.0' }
      if (r.twist === 'dupMessageKey' && msg[0]) msg.push([msg[0][0], { t: 'raw', text: '"other"' }])
      if (r.twist === 'protoInMessage') msg.push(['__proto__', { t: 'raw', text: '{"wallet":"0x00"}' }])
      const entries: [string, Node][] = []
      if (!r.omitId) entries.push(['id', { t: 'raw', text: r.id }])
      entries.push(['op', { t: 'raw', text: JSON.stringify(r.op) }], ['kind', { t: 'raw', text: JSON.stringify(r.kind) }])
      if (r.twist === 'dupKind') entries.push(['kind', { t: 'raw', text: JSON.stringify(r.kind) }])
      entries.push(['message', { t: 'obj', entries: msg }])
      if (r.op === 'sign') entries.push(['privateKey', { t: 'raw', text: JSON.stringify(r.key) }])
      else {
        const signed = await signOptions(r.kind, r.message, r.key).catch(() => ({ signature: `0x${'11'.repeat(65)}` }))
        entries.push(['signature', { t: 'raw', text: JSON.stringify(signed.signature) }])
      }
      let text = write({ t: 'obj', entries }, r.style)
      if (r.twist === 'escapedKey') text = text.replace('"op"', '"\\u006fp"')
      expect(await answerLine(signing, text)).toBe(await reference(text))
    }
  })

  it('answers a plain verify through the fast path with the signer', async () => {
    const message = {
      wallet: '0x000000000000000000000000000000000000dEaD',
      symbol: 'BTC-20261225-100000-C',
      side: 'Buy',
      size: '1',
      price: '2.5',
      tif: 'gtc',
      route: 'book_only',
      clientId: 'c1',
      nonce: 18446744073709551615n,
    }
    const key = `0x${'42'.repeat(32)}` as const
    const { signature } = await signOptions('PlaceOrder', message, key)
    const text = `{"id":12345678901234567890,"op":"verify","kind":"PlaceOrder","message":${JSON.stringify({ ...message, nonce: 0 }).replace('"nonce":0', '"nonce":18446744073709551615')},"signature":"${signature}"}`
    const a = await answerLine(signing, text)
    expect(a).toBe(await reference(text))
    expect(a).toMatch(/^\{"id":12345678901234567890,"digest":"0x[0-9a-f]{64}","signer":"0x/)
  })
})

describe('serializeAnswer', () => {
  it("writes what lossless-json's stringify writes, whatever the id", () => {
    fc.assert(
      fc.property(idArb, fc.option(fc.string(), { nil: undefined }), fc.integer(), (idText, error, v) => {
        const id = losslessParse(idText)
        const a: ProtocolAnswer = { id, digest: '0xab', signer: null, v, ...(error === undefined ? {} : { error }), gone: undefined }
        expect(serializeAnswer(a)).toBe(losslessStringify(a))
      }),
      { numRuns: propertyRuns(500), seed: 20261123 },
    )
  })
})
