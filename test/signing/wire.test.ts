/** The one body model: exact JSON text of entries and values, and entry edits that keep the order. */
import { describe, expect, it } from 'vitest'
import { bodyText, jsonText, RawJson, setEntry, type BodyEntries } from '../../src/signing/wire.ts'

describe('jsonText', () => {
  it('writes every kind of value exactly, nested, with no whitespace', () => {
    expect(jsonText(new RawJson('1e3'))).toBe('1e3')
    expect(jsonText(18446744073709551615n)).toBe('18446744073709551615')
    expect(jsonText(null)).toBe('null')
    expect(jsonText(true)).toBe('true')
    expect(jsonText(1.5)).toBe('1.5')
    expect(jsonText('a"b')).toBe('"a\\"b"')
    expect(jsonText([])).toBe('[]')
    expect(jsonText({})).toBe('{}')
    expect(jsonText([1n, 'x', [null], new RawJson('-0')])).toBe('[1,"x",[null],-0]')
    expect(jsonText({ 'k"': { n: 2n, r: new RawJson('100.0') }, z: [false] })).toBe('{"k\\"":{"n":2,"r":100.0},"z":[false]}')
  })
})

describe('bodyText', () => {
  it('entries in order, comma-separated, keys escaped', () => {
    expect(bodyText([])).toBe('{}')
    expect(bodyText([['a', 1n]])).toBe('{"a":1}')
    expect(
      bodyText([
        ['b', 'x'],
        ['a"', new RawJson('2e0')],
        ['c', null],
      ]),
    ).toBe('{"b":"x","a\\"":2e0,"c":null}')
  })
})

describe('setEntry', () => {
  const entries: BodyEntries = [
    ['wallet', '0x1'],
    ['nonce', 1n],
    ['signature', '0xsig'],
  ]

  it('replaces in place, keeping the position', () => {
    expect(setEntry(entries, 'nonce', 2n)).toEqual([
      ['wallet', '0x1'],
      ['nonce', 2n],
      ['signature', '0xsig'],
    ])
  })

  it('removes with undefined, and removing an absent key changes nothing', () => {
    expect(setEntry(entries, 'nonce', undefined)).toEqual([
      ['wallet', '0x1'],
      ['signature', '0xsig'],
    ])
    expect(setEntry(entries, 'absent', undefined)).toEqual(entries)
  })

  it('adds a new key just before signature, or at the end when there is none', () => {
    expect(setEntry(entries, 'route', 'book_only')).toEqual([
      ['wallet', '0x1'],
      ['nonce', 1n],
      ['route', 'book_only'],
      ['signature', '0xsig'],
    ])
    expect(setEntry([['signature', '0xsig']], 'a', 1n)).toEqual([
      ['a', 1n],
      ['signature', '0xsig'],
    ])
    expect(setEntry([['wallet', '0x1']], 'nonce', 3n)).toEqual([
      ['wallet', '0x1'],
      ['nonce', 3n],
    ])
  })

  it('never edits its input', () => {
    const copy = structuredClone(entries)
    setEntry(entries, 'nonce', 9n)
    setEntry(entries, 'extra', 9n)
    expect(entries).toEqual(copy)
  })
})
