/**
 * The client runtime's wire encodings, written against the ES2022 lib alone: MessagePack as the
 * perp venue hashes actions, JSON text with exact integers, and JSON.parse that keeps integers
 * past 2^53 exact. The one copy: client.ts carries it, and the toolkit's perp signing
 * (src/signing/msgpack.ts) encodes with the same `msgpack`.
 */

const U64_MAX = (1n << 64n) - 1n;

/** @internal An integer field as a bigint: a number only while it is exact. */
export function integer(value: unknown, at: string, min = 0n, max = U64_MAX): bigint {
  const big = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof big !== 'bigint' || big < min || big > max)
    throw new TypeError(at + ' must be an integer in ' + min + '..' + max + ' (a bigint past 2^53, never a rounded number)');
  return big;
}

/** @internal `value` as `bytes` big-endian bytes, appended to `out`. */
export function bigEndian(value: bigint, bytes: number, out: number[]): void {
  for (let i = bytes - 1; i >= 0; i--) out.push(Number((value >> BigInt(8 * i)) & 0xffn));
}

/** UTF-8 by code point; a lone surrogate is written as its three-byte form, as @msgpack/msgpack writes it. */
function utf8(text: string, out: number[]): void {
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      out.push(c);
      continue;
    }
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low < 0xe000) {
        c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
}

/** `value` (below 2^32) as `bytes` big-endian bytes, appended to `out`. */
function bigEndianSmall(value: number, bytes: number, out: number[]): void {
  for (let i = bytes - 1; i >= 0; i--) out.push(Math.floor(value / 2 ** (8 * i)) & 0xff);
}

/** A msgpack length header: the fix form below `fixMax`, else the 8-bit one (when `code8` is not 0), the 16-bit one, or the 32-bit one (`code16` + 1). */
function sized(length: number, fix: number, fixMax: number, code8: number, code16: number, out: number[]): void {
  if (length < fixMax) out.push(fix | length);
  else if (code8 !== 0 && length < 0x100) out.push(code8, length);
  else if (length < 0x10000) out.push(code16, length >> 8, length & 0xff);
  else if (length < 0x100000000) out.push(code16 + 1), bigEndianSmall(length, 4, out);
  else throw new TypeError('a msgpack value is too long');
}

const I64_MIN = -(1n << 63n);

/** The dotted path to a refused value: `root` then `.key` and `[index]` steps. */
function pathOf(root: string, path: readonly (string | number)[]): string {
  return root + path.map((p) => (typeof p === 'number' ? '[' + p + ']' : '.' + p)).join('');
}

/** An integer in its smallest msgpack form; numbers within 32 bits never go through a bigint. */
function packInteger(value: number | bigint, out: number[], path: readonly (string | number)[], root: string): void {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= -0x80000000 && value <= 0xffffffff) {
    if (value >= 0) {
      if (value < 128) out.push(value);
      else if (value < 0x100) out.push(0xcc, value);
      else if (value < 0x10000) out.push(0xcd, value >> 8, value & 0xff);
      else out.push(0xce), bigEndianSmall(value, 4, out);
    } else if (value >= -32) out.push(value & 0xff);
    else if (value >= -0x80) out.push(0xd0, value & 0xff);
    else if (value >= -0x8000) out.push(0xd1, (value >> 8) & 0xff, value & 0xff);
    else out.push(0xd2), bigEndianSmall(value >>> 0, 4, out);
    return;
  }
  const v = integer(value, pathOf(root, path), I64_MIN);
  if (v >= -0x80000000n && v <= 0xffffffffn) return packInteger(Number(v), out, path, root);
  out.push(v >= 0n ? 0xcf : 0xd3);
  bigEndian(BigInt.asUintN(64, v), 8, out);
}

/** A string as str: ASCII straight in, anything else through a UTF-8 buffer to learn its byte length first. */
function packString(text: string, out: number[]): void {
  let ascii = true;
  for (let i = 0; i < text.length && ascii; i++) ascii = text.charCodeAt(i) < 0x80;
  if (ascii) {
    sized(text.length, 0xa0, 32, 0xd9, 0xda, out);
    for (let i = 0; i < text.length; i++) out.push(text.charCodeAt(i));
    return;
  }
  const bytes: number[] = [];
  utf8(text, bytes);
  sized(bytes.length, 0xa0, 32, 0xd9, 0xda, out);
  for (const b of bytes) out.push(b);
}

/** One value into `out`; `path` is the way down to it, read only when a value is refused. */
function pack(value: unknown, out: number[], path: (string | number)[], root: string): void {
  if (value === null) out.push(0xc0);
  else if (typeof value === 'boolean') out.push(value ? 0xc3 : 0xc2);
  else if (typeof value === 'number' || typeof value === 'bigint') packInteger(value, out, path, root);
  else if (typeof value === 'string') packString(value, out);
  else if (value instanceof Uint8Array) {
    sized(value.length, 0, 0, 0xc4, 0xc5, out);
    for (const b of value) out.push(b);
  } else if (Array.isArray(value)) {
    sized(value.length, 0x90, 16, 0, 0xdc, out);
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      pack(value[i], out, path, root);
      path.pop();
    }
  } else if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).filter((k) => record[k] !== undefined);
    sized(keys.length, 0x80, 16, 0, 0xde, out);
    for (const k of keys) {
      packString(k, out);
      path.push(k);
      pack(record[k], out, path, root);
      path.pop();
    }
  } else throw new TypeError(pathOf(root, path) + ': a ' + typeof value + ' cannot be hashed as msgpack');
}

/**
 * @internal MessagePack as the venue hashes actions (its Python SDK's `msgpack.packb`): integers in their
 * smallest form up to 64 bits, strings as str8/16/32, byte arrays as bin, maps in the order given,
 * and no floats (prices and sizes travel as strings). Anything else is refused with its path
 * (`at` names the root).
 */
export function msgpack(value: unknown, out: number[], at: string): void {
  pack(value, out, [], at);
}

/** @internal A value as JSON text: bigints as their digits (never through a double), undefined members left out. */
export function toJson(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return '[' + value.map(toJson).join(',') + ']';
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return '{' + entries.map(([k, v]) => JSON.stringify(k) + ':' + toJson(v)).join(',') + '}';
  }
  return JSON.stringify(value);
}

/**
 * JSON.parse that keeps integers exact: one past 2^53 becomes a bigint instead of a rounded
 * number. Strings are copied as they are, so a digit run inside one is never touched.
 */
export function parseJson(text: string): unknown {
  let marked = '';
  let big = false;
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      marked += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
      const token = m?.[0] || c;
      const integer = m !== null && m[1] === undefined && m[2] === undefined;
      if (integer && !Number.isSafeInteger(Number(token))) {
        marked += `"\\u0000int:${token}"`;
        big = true;
      } else marked += token;
      i += token.length;
    } else {
      marked += c;
      i++;
    }
  }
  if (!big) return JSON.parse(text);
  return JSON.parse(marked, (_key, value) =>
    typeof value === 'string' && value.startsWith('\u0000int:') ? BigInt(value.slice(5)) : value,
  );
}
