/** parseBody and readUint64 refusals word for word, and the number-text map by JSON pointer. */
import { describe, expect, it } from 'vitest'
import { escapePointerToken, parseBody, readUint64, type ParsedBodyOk } from '../../src/signing/body.ts'

const MAX = '18446744073709551615'
const ok = (text: string): ParsedBodyOk => {
  const r = parseBody(text)
  if (!r.ok) throw new Error(r.message)
  return r
}

describe('parseBody', () => {
  it('records every number text at its pointer, through arrays and escaped keys', () => {
    const r = ok('{"a":[1,{"b":2.50}],"c/d":{"e~f":1e3},"s":"7"}')
    expect(r.value).toEqual({ a: [1, { b: 2.5 }], 'c/d': { 'e~f': 1000 }, s: '7' })
    expect([...r.numbers]).toEqual([
      ['/a/0', '1'],
      ['/a/1/b', '2.50'],
      ['/c~1d/e~0f', '1e3'],
    ])
    expect([...ok('5').numbers]).toEqual([['', '5']])
    expect(escapePointerToken('~a/b~')).toBe('~0a~1b~0')
  })

  it('refusals: not text, too deep, duplicates with where they are, invalid JSON', () => {
    expect(parseBody(5 as unknown as string)).toEqual({ ok: false, code: 'invalid_json', field: null, message: 'body is not text' })
    expect(parseBody('['.repeat(33) + ']'.repeat(33))).toEqual({
      ok: false,
      code: 'invalid_field',
      field: null,
      message: 'body nests deeper than 32 levels',
    })
    expect(parseBody('{"a":{"b":{}}}', { maxDepth: 2 })).toMatchObject({ message: 'body nests deeper than 2 levels' })
    expect(parseBody('{"a":{"b":{}}}', { maxDepth: 3 }).ok).toBe(true)
    expect(parseBody('{"nonce":1,"nonce":1}')).toEqual({
      ok: false,
      code: 'invalid_field',
      field: 'nonce',
      message: 'duplicate key "nonce"',
    })
    expect(parseBody('{"nonce":1,"nonce":2}')).toEqual({
      ok: false,
      code: 'invalid_field',
      field: 'nonce',
      message: 'duplicate key "nonce"',
    })
    expect(parseBody('{"x":{"y":{"z":0,"z":0}}}')).toMatchObject({ field: 'z', message: 'duplicate key "z" in /x/y' })
    expect(parseBody('{"orders":[{"a":1},{"b":1,"b":1}]}')).toMatchObject({ field: 'b', message: 'duplicate key "b" in /orders/1' })
    expect(parseBody('{"a/b":{"c":1,"c":1}}')).toMatchObject({ field: 'c', message: 'duplicate key "c" in /a~1b' })
    expect(parseBody('{"p":"1","\\u0070":"1"}')).toMatchObject({ field: 'p', message: 'duplicate key "p"' })
    // A quote escaped inside a key or a value does not end the string.
    expect(parseBody('{"a\\"b":1,"c":"x\\"y","a\\"b":1}')).toMatchObject({ field: 'a"b', message: 'duplicate key "a"b"' })
    expect(parseBody('{"k":"\\"","j":1}').ok).toBe(true)
    // Keys are compared per object: values and keys of other objects are not keys here.
    expect(parseBody('{"a":"b","b":{"a":1}}').ok).toBe(true)
    expect(parseBody('{"a":["a","a"]}').ok).toBe(true)
    const bad = parseBody('{"a":')
    expect(bad).toMatchObject({ ok: false, code: 'invalid_json', field: null })
    if (!bad.ok) expect(bad.message).toMatch(/^invalid JSON: \S.*[^\n]$/)
  })
})

describe('readUint64', () => {
  it('says what the value is instead of a uint64, naming the field', () => {
    const read = (text: string, pointer = '/nonce') => readUint64(ok(text), pointer)
    expect(read(`{"nonce":${MAX}}`)).toEqual({ ok: true, value: BigInt(MAX) })
    expect(read('{"nonce":0}')).toEqual({ ok: true, value: 0n })
    expect(read('{"nonce":"5"}')).toEqual({ ok: false, message: `nonce must be a JSON integer in 0..${MAX}, got a string` })
    expect(read('{"nonce":null}')).toEqual({ ok: false, message: `nonce must be a JSON integer in 0..${MAX}, got a null` })
    expect(read('{"nonce":[1]}')).toEqual({ ok: false, message: `nonce must be a JSON integer in 0..${MAX}, got a array` })
    expect(read('{"nonce":true}')).toEqual({ ok: false, message: `nonce must be a JSON integer in 0..${MAX}, got a boolean` })
    expect(read('{"nonce":{}}')).toEqual({ ok: false, message: `nonce must be a JSON integer in 0..${MAX}, got a object` })
    expect(read('{"nonce":-1}')).toEqual({ ok: false, message: `nonce must be an integer in 0..${MAX}, got -1 (negative)` })
    expect(read('{"nonce":-0}')).toEqual({ ok: false, message: `nonce must be an integer in 0..${MAX}, got -0 (negative)` })
    expect(read('{"nonce":1e3}')).toEqual({ ok: false, message: `nonce must be an integer in 0..${MAX}, got 1e3 (in exponent form)` })
    expect(read('{"nonce":1E3}')).toEqual({ ok: false, message: `nonce must be an integer in 0..${MAX}, got 1E3 (in exponent form)` })
    expect(read('{"nonce":1.0}')).toEqual({ ok: false, message: `nonce must be an integer in 0..${MAX}, got 1.0 (fractional)` })
    expect(read('{"nonce":-1.5}')).toEqual({ ok: false, message: `nonce must be an integer in 0..${MAX}, got -1.5 (negative)` })
    expect(read('{"nonce":1.5e3}')).toEqual({ ok: false, message: `nonce must be an integer in 0..${MAX}, got 1.5e3 (in exponent form)` })
    expect(read(`{"nonce":${BigInt(MAX) + 1n}}`)).toEqual({
      ok: false,
      message: `nonce must be an integer in 0..${MAX}, got ${BigInt(MAX) + 1n} (above 2^64-1)`,
    })
  })

  it('pointers: nested, escaped, into arrays, through a scalar, and the whole body', () => {
    expect(readUint64(ok('{"a":[{"n":3}]}'), '/a/0/n')).toEqual({ ok: true, value: 3n })
    expect(readUint64(ok('{"a":["x"]}'), '/a/0')).toEqual({ ok: false, message: `a/0 must be a JSON integer in 0..${MAX}, got a string` })
    expect(readUint64(ok('{"a~b":{"c/d":"x"}}'), '/a~0b/c~1d')).toEqual({
      ok: false,
      message: `a~b/c/d must be a JSON integer in 0..${MAX}, got a string`,
    })
    expect(readUint64(ok('{"a":5}'), '/a/b')).toEqual({ ok: false, message: 'a/b is missing' })
    expect(readUint64(ok('{"a":null}'), '/a/b')).toEqual({ ok: false, message: 'a/b is missing' })
    expect(readUint64(ok('{"a":[1]}'), '/a/1')).toEqual({ ok: false, message: 'a/1 is missing' })
    expect(readUint64(ok('7'), '')).toEqual({ ok: true, value: 7n })
    expect(readUint64(ok('"x"'), '')).toEqual({ ok: false, message: `(body) must be a JSON integer in 0..${MAX}, got a string` })
  })
})
