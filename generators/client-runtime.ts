/**
 * The fixed run-time part of client.ts: signer, nonce and fetch types (structural, so the file
 * compiles with the ES2022 lib alone), value checks, the builders (a signed body, a batch of
 * signed items, the perp Agent over a msgpack action hash), lossless JSON, retries and results.
 * It walks the tables of client-plans.ts; nothing here names an operation or a field list.
 */

export interface RuntimeNames {
  readonly bodies: string
  readonly plans: string
  readonly headers: string
  readonly typedData: string
  readonly bodyFields: string
  readonly errorCode: string
}

/** The run-time text; `n` names the generated tables and the types it imports. */
export function runtime(n: RuntimeNames): string {
  return `export type Hex = \`0x\${string}\`;

/** The parts of a fetch Response the client reads, declared here so client.ts needs neither the DOM lib nor @types/node. */
export interface FetchResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
  readonly body?: { cancel(): Promise<void> } | null;
}

/** What the client hands to fetch: a body only when the operation has one. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** \`globalThis.fetch\` fits, as does any function of this shape. */
export type Fetch = (url: string, init: FetchInit) => Promise<FetchResponse>;

/** keccak256 of bytes as hex (viem's or ox's \`keccak256\` fits): the perp action hash. */
export type Keccak256 = (bytes: Uint8Array) => Hex;

/** What the client uses from the host, read off globalThis so the types need nothing past ES2022. */
const host = globalThis as unknown as { fetch?: Fetch; setTimeout(callback: () => void, ms: number): unknown };

/** What a signer signs: the argument of viem's \`signTypedData\`. */
export interface TypedDataPayload {
  domain: { name?: string; version?: string; chainId?: number; verifyingContract?: Hex };
  types: { readonly [struct: string]: readonly { readonly name: string; readonly type: string }[] };
  primaryType: string;
  message: { [field: string]: string | bigint | boolean };
}

/** Any \`signTypedData(typedData) → hex\` function. */
export type SignTypedData = (typedData: TypedDataPayload) => Promise<Hex>;

/** A viem account (\`privateKeyToAccount\`), a viem wallet client with an account, or a plain function. */
export type Signer =
  | SignTypedData
  | {
      signTypedData(typedData: TypedDataPayload): Promise<Hex>;
      readonly address?: Hex;
      readonly account?: { readonly address: Hex } | undefined;
    };

/** Hands out nonces per trading wallet. */
export interface NonceSource {
  next(wallet: string): bigint | Promise<bigint>;
}

/**
 * Increasing nonces per wallet: the clock in microseconds, or one more than the last one handed
 * out when the clock has not moved past it.
 */
export function monotonicNonces(nowMs: () => number = Date.now): NonceSource {
  const last = new Map<string, bigint>();
  return {
    next(wallet: string): bigint {
      const key = wallet.toLowerCase();
      const prev = last.get(key) ?? 0n;
      const now = BigInt(Math.floor(nowMs())) * 1000n;
      const nonce = now > prev ? now : prev + 1n;
      last.set(key, nonce);
      return nonce;
    },
  };
}

export interface BuildOptions {
  readonly signer: Signer;
  /** A fixed nonce or a source of them: there is no default, so a forgotten nonce does not compile. */
  readonly nonce: bigint | NonceSource;
  /** Replaces the signing domain whole (e.g. another chain ID or the service's real name). */
  readonly domain?: TypedDataPayload['domain'];
}

export interface SignedRequest {
  /** The JSON body, byte for byte what was signed: decimals as given, the nonce an exact integer. */
  readonly body: string;
  readonly typedData: TypedDataPayload;
  readonly signature: Hex;
  readonly nonce: bigint;
}

/** A body without what the builder supplies: the signature, the nonce, and the wallet when the signer has an address. */
export type Unsigned<T> = T extends unknown
  ? Omit<T, 'signature' | 'nonce' | 'wallet'> & ('wallet' extends keyof T ? { wallet?: T['wallet'] } : {})
  : never;

/** A body with every signed part unsigned (a batch's items too): what a method of a signed operation takes. */
export type UnsignedDeep<T> = T extends readonly (infer U)[]
  ? UnsignedDeep<U>[]
  : T extends { signature: unknown; nonce: unknown }
    ? Unsigned<T>
    : T extends object
      ? { [K in keyof T]: UnsignedDeep<T[K]> }
      : T;

/** Integers as numbers or bigints, so an order ID past 2^53 is written exactly. */
export type WideInts<T> = T extends number
  ? number | bigint
  : T extends readonly (infer U)[]
    ? WideInts<U>[]
    : T extends object
      ? { [K in keyof T]: WideInts<T[K]> }
      : T;

/** The request body of an operation of \`paths\` (its first media type). */
export type RequestBodyOf<Op> = Op extends { requestBody?: infer B } ? (NonNullable<B> extends { content: infer C } ? C[keyof C] : never) : never;

/** The query parameters of an operation of \`paths\`. */
export type QueryOf<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** The path parameters of an operation of \`paths\`. */
export type PathOf<Op> = Op extends { parameters: { path?: infer P } } ? NonNullable<P> : never;

/** The body of a 2xx answer of an operation of \`paths\`, as openapi-fetch's \`data\`. */
export type SuccessData<Op> = Op extends { responses: infer R }
  ? { [S in keyof R]: \`\${S & number}\` extends \`2\${string}\` ? (R[S] extends { content: infer C } ? C[keyof C] : undefined) : never }[keyof R]
  : never;

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** The signer's answer as the service accepts it: 65 bytes, low s, v 27 or 28 (0 and 1 are rewritten). */
export function checkSignature(signature: unknown): Hex {
  if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]{130}$/.test(signature)) {
    throw new Error('the signer returned no 65-byte hex signature');
  }
  const r = BigInt(\`0x\${signature.slice(2, 66)}\`);
  const s = BigInt(\`0x\${signature.slice(66, 130)}\`);
  let v = Number.parseInt(signature.slice(130), 16);
  if (v === 0 || v === 1) v += 27;
  if (v !== 27 && v !== 28) throw new Error(\`the signer returned v = \${v}; the service takes 27 or 28\`);
  if (r === 0n || r >= SECP256K1_N || s === 0n || s >= SECP256K1_N) throw new Error('the signer returned an out-of-range signature');
  if (s > SECP256K1_N / 2n) throw new Error('the signer returned a high-s signature, which the service refuses');
  return \`0x\${signature.slice(2, 130)}\${v.toString(16)}\` as Hex;
}

/** A value of an EIP-712 field, checked against its type: a number price or a string nonce never gets signed. */
function checked(field: string, type: string, value: unknown): string | bigint | boolean {
  const bits = /^u?int(\\d*)$/.exec(type);
  if (bits) {
    const size = BigInt(bits[1] || '256');
    const min = type.startsWith('u') ? 0n : -(1n << (size - 1n));
    const max = type.startsWith('u') ? (1n << size) - 1n : (1n << (size - 1n)) - 1n;
    if (typeof value !== 'bigint' || value < min || value > max) throw new TypeError(\`\${field} must be a bigint in \${min}..\${max}\`);
    return value;
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw new TypeError(\`\${field} must be a boolean\`);
    return value;
  }
  if (typeof value !== 'string') throw new TypeError(\`\${field} must be a string, signed and sent exactly as written\`);
  if (type === 'address' && !/^0x[0-9a-fA-F]{40}$/.test(value)) throw new TypeError(\`\${field} must be a 0x-prefixed 20-byte address\`);
  if (type.startsWith('bytes') && !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw new TypeError(\`\${field} must be 0x-prefixed hex\`);
  // Addresses are 20 bytes whatever their case; lower case keeps checksumming signers quiet.
  return type === 'address' ? value.toLowerCase() : value;
}

function signerAddress(signer: Signer): string | undefined {
  return typeof signer === 'function' ? undefined : (signer.address ?? signer.account?.address);
}

type MessageId = keyof typeof ${n.typedData};

/** Picks the body schema and its struct variant from the fields present, then signs. */
async function build(schemas: readonly (keyof typeof ${n.bodies})[], input: Record<string, unknown>, options: BuildOptions): Promise<SignedRequest> {
  const given = Object.keys(input).filter((k) => input[k] !== undefined);
  for (const schema of schemas) {
    const variants: readonly { message: string; whenPresent?: string; whenAbsent?: string }[] = ${n.bodies}[schema].variants;
    const variant = variants.find(
      (v) => (v.whenPresent === undefined || given.includes(v.whenPresent)) && (v.whenAbsent === undefined || !given.includes(v.whenAbsent)),
    );
    if (!variant) continue;
    const id = variant.message as MessageId;
    const td = ${n.typedData}[id];
    const fields: readonly { name: string; type: string }[] = (td.types as Record<string, readonly { name: string; type: string }[]>)[td.primaryType]!;
    const bodyName = (f: string): string => (${n.bodyFields}[id] as Record<string, string>)[f] ?? f;
    const accepted = fields.map((f) => bodyName(f.name)).filter((b) => b !== 'nonce');
    if (!given.every((k) => accepted.includes(k))) continue;
    const wallet = input.wallet ?? signerAddress(options.signer);
    const nonce = await nextNonce(options.nonce, typeof wallet === 'string' ? wallet : (signerAddress(options.signer) ?? ''));
    const values: Record<string, unknown> = { ...input, nonce, ...(fields.some((f) => f.name === 'wallet') ? { wallet } : {}) };
    const message: TypedDataPayload['message'] = {};
    for (const f of fields) message[f.name] = checked(bodyName(f.name), f.type, values[bodyName(f.name)]);
    const payload: TypedDataPayload = { domain: options.domain ?? td.domain, types: td.types, primaryType: td.primaryType, message };
    const signature = await sign(options.signer, payload);
    const signatureField = ${n.bodies}[schema].signature;
    const parts = fields.map((f) => \`\${JSON.stringify(bodyName(f.name))}:\${toJson(values[bodyName(f.name)])}\`);
    parts.push(\`\${JSON.stringify(signatureField)}:\${JSON.stringify(signature)}\`);
    return { body: \`{\${parts.join(',')}}\`, typedData: payload, signature, nonce: nonce as bigint };
  }
  const known = schemas.flatMap((s) => ${n.bodies}[s].variants.map((v) => v.message)).join(' or ');
  throw new TypeError(\`no signed body (\${known}) takes the fields \${given.join(', ') || '(none)'}\`);
}

/** The next nonce for \`owner\`. A JavaScript caller can pass anything: the value is checked where it is signed. */
async function nextNonce(source: bigint | NonceSource, owner: string): Promise<unknown> {
  return typeof source === 'object' && source !== null ? await source.next(owner) : source;
}

async function sign(signer: Signer, payload: TypedDataPayload): Promise<Hex> {
  return checkSignature(typeof signer === 'function' ? await signer(payload) : await signer.signTypedData(payload));
}

/** A value as JSON text: bigints as their digits (never through a double), undefined members left out. */
function toJson(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return '[' + value.map(toJson).join(',') + ']';
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return '{' + entries.map(([k, v]) => JSON.stringify(k) + ':' + toJson(v)).join(',') + '}';
  }
  return JSON.stringify(value);
}

type Plan =
  | { readonly signed: readonly (keyof typeof ${n.bodies})[] }
  | { readonly perp: PerpPlan }
  | { readonly items: Plan }
  | { readonly props: { readonly [key: string]: Plan } }
  | { readonly plain: true };

interface KeyOrder {
  readonly keys?: readonly string[];
  readonly props?: { readonly [key: string]: KeyOrder };
  readonly items?: KeyOrder;
  readonly tag?: string;
  readonly cases?: { readonly [value: string]: KeyOrder };
}

interface PerpPlan {
  readonly message: MessageId;
  readonly derived: string;
  readonly signature: string;
  readonly action: string;
  readonly order?: KeyOrder;
}

interface OperationPlan {
  readonly method: string;
  readonly path: string;
  readonly query: 'none' | 'optional' | 'required';
  readonly pathParams?: readonly string[];
  readonly body: Plan | null;
}

/** A batch: its body text and each signed item, in body order. */
export interface SignedBatch {
  readonly body: string;
  readonly items: readonly SignedRequest[];
}

/** Builds a body that holds signed parts (a batch), signing them in body order so their nonces increase. */
async function buildBody(plan: Plan, input: unknown, options: BuildOptions, signed: SignedRequest[], at: string): Promise<string> {
  if ('signed' in plan) {
    if (input === null || typeof input !== 'object') throw new TypeError(at + ' must be an object');
    const item = await build(plan.signed, input as Record<string, unknown>, options);
    signed.push(item);
    return item.body;
  }
  if ('items' in plan) {
    if (!Array.isArray(input)) throw new TypeError(at + ' must be an array');
    const parts: string[] = [];
    for (const [i, item] of input.entries()) parts.push(await buildBody(plan.items, item, options, signed, at + '[' + i + ']'));
    return '[' + parts.join(',') + ']';
  }
  if ('props' in plan) {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new TypeError(at + ' must be an object');
    const parts: string[] = [];
    for (const [k, v] of Object.entries(input)) {
      if (v === undefined) continue;
      const sub = plan.props[k];
      parts.push(JSON.stringify(k) + ':' + (sub ? await buildBody(sub, v, options, signed, at + '.' + k) : toJson(v)));
    }
    return '{' + parts.join(',') + '}';
  }
  return toJson(input);
}

/** The action rebuilt in the key order the venue hashes it in (the schemas' \`properties\` order). */
function ordered(order: KeyOrder | undefined, value: unknown): unknown {
  if (order === undefined) return value;
  if (Array.isArray(value)) return value.map((v) => ordered(order.items, v));
  if (value === null || typeof value !== 'object') return value;
  const v = value as Record<string, unknown>;
  const o = order.tag !== undefined ? order.cases?.[String(v[order.tag])] : order;
  if (o?.keys === undefined) return value;
  const out: Record<string, unknown> = {};
  for (const k of o.keys) if (v[k] !== undefined) out[k] = ordered(o.props?.[k], v[k]);
  // Keys the schema does not name keep their place at the end; the service refuses them anyway.
  for (const k of Object.keys(v)) if (!(k in out) && v[k] !== undefined) out[k] = v[k];
  return out;
}

const U64_MAX = (1n << 64n) - 1n;

/** An integer field as a bigint: a number only while it is exact. */
function integer(value: unknown, at: string, min = 0n, max = U64_MAX): bigint {
  const big = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof big !== 'bigint' || big < min || big > max)
    throw new TypeError(at + ' must be an integer in ' + min + '..' + max + ' (a bigint past 2^53, never a rounded number)');
  return big;
}

function bigEndian(value: bigint, bytes: number, out: number[]): void {
  for (let i = bytes - 1; i >= 0; i--) out.push(Number((value >> BigInt(8 * i)) & 0xffn));
}

function utf8(text: string, out: number[]): void {
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
}

/** A msgpack length header: the fix form below \`fixMax\`, else the 8-, 16- or 32-bit one (\`codes\` in that order, 0 where none). */
function sized(length: number, fix: number, fixMax: number, codes: readonly number[], out: number[]): void {
  if (length < fixMax) return void out.push(fix | length);
  const widths = [1, 2, 4];
  for (const [i, code] of codes.entries()) {
    if (code !== 0 && length < 2 ** (8 * widths[i]!)) {
      out.push(code);
      return bigEndian(BigInt(length), widths[i]!, out);
    }
  }
  throw new TypeError('a msgpack value is too long');
}

/**
 * MessagePack as the venue hashes actions (its Python SDK's \`msgpack.packb\`): integers in their
 * smallest form up to 64 bits, strings as str8/16/32, maps in the order given, and no floats
 * (prices and sizes travel as strings). Anything else is refused with its path.
 */
function msgpack(value: unknown, out: number[], at: string): void {
  if (value === null) out.push(0xc0);
  else if (typeof value === 'boolean') out.push(value ? 0xc3 : 0xc2);
  else if (typeof value === 'number' || typeof value === 'bigint') {
    const v = integer(value, at, -(1n << 63n));
    if (v >= 0n && v < 128n) out.push(Number(v));
    else if (v < 0n && v >= -32n) out.push(Number(v & 0xffn));
    else {
      const [code, bytes] =
        v >= 0n
          ? v < 1n << 8n ? [0xcc, 1] : v < 1n << 16n ? [0xcd, 2] : v < 1n << 32n ? [0xce, 4] : [0xcf, 8]
          : v >= -(1n << 7n) ? [0xd0, 1] : v >= -(1n << 15n) ? [0xd1, 2] : v >= -(1n << 31n) ? [0xd2, 4] : [0xd3, 8];
      out.push(code);
      bigEndian(BigInt.asUintN(8 * bytes, v), bytes, out);
    }
  } else if (typeof value === 'string') {
    const bytes: number[] = [];
    utf8(value, bytes);
    sized(bytes.length, 0xa0, 32, [0xd9, 0xda, 0xdb], out);
    out.push(...bytes);
  } else if (Array.isArray(value)) {
    sized(value.length, 0x90, 16, [0, 0xdc, 0xdd], out);
    value.forEach((v, i) => msgpack(v, out, at + '[' + i + ']'));
  } else if (typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    sized(entries.length, 0x80, 16, [0, 0xde, 0xdf], out);
    for (const [k, v] of entries) {
      msgpack(k, out, at);
      msgpack(v, out, at + '.' + k);
    }
  } else throw new TypeError(at + ': a ' + typeof value + ' cannot be hashed as msgpack');
}

export interface PerpBuildOptions {
  readonly signer: Signer;
  /** A fixed nonce or a source of them (keyed by \`vaultAddress\`, else the signer's address). */
  readonly nonce: bigint | NonceSource;
  /** Hashes the msgpack action: viem's \`keccak256\` fits. */
  readonly keccak256: Keccak256;
  /** The Agent's \`source\`: 'a' on mainnet (default), 'b' on testnet. */
  readonly isMainnet?: boolean;
  /** Replaces the perp signing domain whole. */
  readonly domain?: TypedDataPayload['domain'];
}

export interface PerpSignedRequest extends SignedRequest {
  /** keccak256(msgpack(action) ‖ nonce ‖ vault flag [‖ vault] [‖ 0x00 ‖ expiresAfter]): the Agent's hash field. */
  readonly connectionId: Hex;
}

/**
 * Signs a perp request as the venue does: the action in the spec's key order, hashed with the
 * nonce, the vault (optional) and \`expiresAfter\` (optional), and that hash signed as the Agent.
 */
async function buildPerp(plan: PerpPlan, input: Record<string, unknown>, options: PerpBuildOptions): Promise<PerpSignedRequest> {
  if (input === null || typeof input !== 'object') throw new TypeError('a perp request must be an object');
  if (typeof options.keccak256 !== 'function') throw new TypeError('perp actions are hashed with keccak256: pass one (viem\\'s keccak256 fits)');
  const action = ordered(plan.order, input[plan.action]);
  if (action === null || typeof action !== 'object') throw new TypeError(plan.action + ' must be an object');
  const vault = input.vaultAddress ?? null;
  if (vault !== null && (typeof vault !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(vault))) throw new TypeError('vaultAddress must be a 0x-prefixed 20-byte address');
  const expires = input.expiresAfter === undefined || input.expiresAfter === null ? null : integer(input.expiresAfter, 'expiresAfter');
  const nonce = integer(await nextNonce(options.nonce, (vault ?? signerAddress(options.signer) ?? '').toLowerCase()), 'nonce');
  const bytes: number[] = [];
  msgpack(action, bytes, plan.action);
  bigEndian(nonce, 8, bytes);
  if (vault === null) bytes.push(0);
  else {
    bytes.push(1);
    for (let i = 2; i < 42; i += 2) bytes.push(Number.parseInt(vault.slice(i, i + 2), 16));
  }
  if (expires !== null) {
    bytes.push(0);
    bigEndian(expires, 8, bytes);
  }
  const connectionId = options.keccak256(Uint8Array.from(bytes));
  if (typeof connectionId !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(connectionId)) throw new TypeError('keccak256 must return 32 bytes as 0x-prefixed hex');
  const td = ${n.typedData}[plan.message];
  const message = { source: options.isMainnet === false ? 'b' : 'a', [plan.derived]: connectionId.toLowerCase() };
  const payload: TypedDataPayload = { domain: options.domain ?? td.domain, types: td.types, primaryType: td.primaryType, message };
  const signature = await sign(options.signer, payload);
  const rsv = { r: '0x' + signature.slice(2, 66), s: '0x' + signature.slice(66, 130), v: Number.parseInt(signature.slice(130), 16) };
  const parts = [JSON.stringify(plan.action) + ':' + toJson(action), '"nonce":' + nonce, JSON.stringify(plan.signature) + ':' + toJson(rsv)];
  for (const [k, v] of Object.entries(input)) {
    if (k !== plan.action && k !== 'nonce' && k !== plan.signature && v !== undefined) parts.push(JSON.stringify(k) + ':' + toJson(v));
  }
  return { body: '{' + parts.join(',') + '}', typedData: payload, signature, nonce, connectionId: connectionId.toLowerCase() as Hex };
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
      while (j < text.length && text[j] !== '"') j += text[j] === '\\\\' ? 2 : 1;
      marked += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?/.exec(text.slice(i, i + 400));
      const token = m?.[0] || c;
      const integer = m !== null && m[1] === undefined && m[2] === undefined;
      if (integer && !Number.isSafeInteger(Number(token))) {
        marked += \`"\\\\u0000int:\${token}"\`;
        big = true;
      } else marked += token;
      i += token.length;
    } else {
      marked += c;
      i++;
    }
  }
  if (!big) return JSON.parse(text);
  return JSON.parse(marked, (_key, value) => (typeof value === 'string' && value.startsWith('\\u0000int:') ? BigInt(value.slice(5)) : value));
}

export interface RetryOptions {
  /** Retries after the first try (default 5). */
  readonly retries?: number;
  /** Backoff before the first retry, doubled on each consecutive one (default 250 ms). */
  readonly baseDelayMs?: number;
  readonly factor?: number;
  readonly maxDelayMs?: number;
  /** HTTP statuses retried (default 429 and 503); a dropped connection is always retried. */
  readonly statuses?: readonly number[];
  readonly sleep?: (ms: number) => Promise<void>;
}

export interface ClientOptions {
  /** The service's base URL, no trailing slash. */
  readonly baseUrl: string;
  readonly signer: Signer;
  /** Default: the global \`fetch\`. */
  readonly fetch?: Fetch;
  /** Default: \`monotonicNonces()\`, one increasing sequence per wallet. */
  readonly nonces?: NonceSource;
  /** \`false\` sends once; otherwise Retry-After plus exponential backoff on consecutive 429s. */
  readonly retry?: RetryOptions | false;
  /** Replaces the signing domain of the field-by-field signed operations. */
  readonly domain?: TypedDataPayload['domain'];
  /** Hashes perp actions (viem's \`keccak256\`); needed only by perp operations. */
  readonly keccak256?: Keccak256;
  /** Perp Agent \`source\`: 'a' on mainnet (default), 'b' on testnet. */
  readonly isMainnet?: boolean;
  /** Replaces the perp signing domain. */
  readonly perpDomain?: TypedDataPayload['domain'];
  /** Default: \`parseJson\`, exact for integers past 2^53. */
  readonly parseJson?: (text: string) => unknown;
}

/** The rate-limit counters of a response; null where the header is absent. */
export interface RateLimit {
  readonly limit: number | null;
  readonly remaining: number | null;
  readonly reset: number | null;
  readonly retryAfter: number | null;
}

export interface ApiError {
  readonly status: number;
  /** Branch on this; a code this version does not know is still a string, never a crash. */
  readonly code: ${n.errorCode} | null;
  /** For people: show or log it, never parse it. */
  readonly message: string | null;
  readonly body: unknown;
}

/** openapi-fetch's \`{ data, error, response }\`, plus the rate-limit counters and what was signed (\`R\`). */
export type Result<T, R = SignedRequest> =
  | { readonly data: T; readonly error?: undefined; readonly response: FetchResponse; readonly rateLimit: RateLimit; readonly request: R }
  | { readonly data?: undefined; readonly error: ApiError; readonly response: FetchResponse; readonly rateLimit: RateLimit; readonly request: R };

function header(response: FetchResponse, name: string | null): number | null {
  const text = name === null ? null : response.headers.get(name);
  if (text === null || text.trim() === '') return null;
  const value = Number(text);
  if (Number.isFinite(value)) return value;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function rateLimitOf(response: FetchResponse): RateLimit {
  return {
    limit: header(response, ${n.headers}.limit),
    remaining: header(response, ${n.headers}.remaining),
    reset: header(response, ${n.headers}.reset),
    retryAfter: header(response, ${n.headers}.retryAfter),
  };
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    host.setTimeout(resolve, ms);
  });

function globalFetch(url: string, init: FetchInit): Promise<FetchResponse> {
  if (typeof host.fetch !== 'function') throw new TypeError('this runtime has no global fetch: pass options.fetch');
  return host.fetch(url, init);
}

/** fetch with the retry policy: Retry-After is the floor, and the backoff on top grows on every consecutive retry. */
function sender(options: ClientOptions): (method: string, url: string, body: string | undefined) => Promise<FetchResponse> {
  const doFetch = options.fetch ?? globalFetch;
  const policy = options.retry === false ? { retries: 0 } : (options.retry ?? {});
  const retries = policy.retries ?? 5;
  const statuses = policy.statuses ?? [429, 503];
  const wait = policy.sleep ?? sleep;
  return async (method, url, body) => {
    const init: FetchInit = body === undefined ? { method, headers: {} } : { method, headers: { 'content-type': 'application/json' }, body };
    for (let attempt = 0; ; attempt++) {
      let response: FetchResponse | undefined;
      let failure: unknown;
      try {
        response = await doFetch(url, init);
      } catch (err) {
        failure = err;
      }
      if (attempt >= retries || (response !== undefined && !statuses.includes(response.status))) {
        if (response !== undefined) return response;
        throw failure;
      }
      const backoff = Math.min(policy.maxDelayMs ?? 30_000, (policy.baseDelayMs ?? 250) * (policy.factor ?? 2) ** attempt);
      const after = response === undefined ? null : rateLimitOf(response).retryAfter;
      await response?.body?.cancel();
      await wait(backoff + (after ?? 0) * 1000);
    }
  };
}

async function readResult<R>(response: FetchResponse, request: R, parse: (text: string) => unknown): Promise<Result<any, R>> {
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === '' ? null : parse(text);
  } catch {
    body = text;
  }
  const rateLimit = rateLimitOf(response);
  if (response.ok) return { data: body, response, rateLimit, request };
  const fields = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const error: ApiError = {
    status: response.status,
    code: typeof fields.code === 'string' ? fields.code : null,
    message: typeof fields.message === 'string' ? fields.message : null,
    body,
  };
  return { error, response, rateLimit, request };
}

/** \`?k=v&...\` of the defined values, encoded for a URL. */
function queryString(query: unknown): string {
  if (query === undefined || query === null) return '';
  if (typeof query !== 'object') throw new TypeError('query parameters must be an object');
  const pairs = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(String(v)));
  return pairs.length === 0 ? '' : '?' + pairs.join('&');
}

/** The path with each \`{name}\` filled from the input's field of that name, encoded for a URL. */
function filledPath(plan: OperationPlan, input: unknown): string {
  if (!plan.pathParams) return plan.path;
  let path = plan.path;
  for (const name of plan.pathParams) {
    const v = (input as Record<string, unknown> | undefined)?.[name];
    if (v === undefined || v === null || v === '') throw new TypeError('path parameter ' + name + ' is missing');
    path = path.split('{' + name + '}').join(encodeURIComponent(String(v)));
  }
  return path;
}

/** The query fields of a GET's input: everything but its path parameters. */
function queryPart(plan: OperationPlan, input: unknown): unknown {
  if (!plan.pathParams || input === undefined || input === null || typeof input !== 'object') return input;
  const rest: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const name of plan.pathParams) delete rest[name];
  return rest;
}

/** The one path every client method takes: build the request its plan describes, send it, read the answer. */
function caller(options: ClientOptions): (id: keyof typeof ${n.plans}, input: unknown) => Promise<Result<any, any>> {
  const nonces = options.nonces ?? monotonicNonces();
  const send = sender(options);
  const parse = options.parseJson ?? parseJson;
  const signing: BuildOptions = { signer: options.signer, nonce: nonces, ...(options.domain !== undefined ? { domain: options.domain } : {}) };
  return async (id, input) => {
    const plan: OperationPlan = ${n.plans}[id];
    let url = options.baseUrl + filledPath(plan, input);
    let body: string | undefined;
    let request: unknown;
    if (plan.body === null) url += queryString(queryPart(plan, input));
    else if ('perp' in plan.body) {
      request = await buildPerp(plan.body.perp, input as Record<string, unknown>, {
        signer: options.signer,
        nonce: nonces,
        keccak256: options.keccak256 as Keccak256,
        ...(options.isMainnet !== undefined ? { isMainnet: options.isMainnet } : {}),
        ...(options.perpDomain !== undefined ? { domain: options.perpDomain } : {}),
      });
      body = (request as PerpSignedRequest).body;
    } else if ('signed' in plan.body) {
      request = await build(plan.body.signed, input as Record<string, unknown>, signing);
      body = (request as SignedRequest).body;
    } else if ('plain' in plan.body) body = toJson(input);
    else {
      const items: SignedRequest[] = [];
      body = await buildBody(plan.body, input, signing, items, 'body');
      request = { body, items } satisfies SignedBatch;
    }
    // A retry sends the same bytes: a failed request may be retried with its nonce.
    return readResult(await send(plan.method, url, body), request, parse);
  };
}

`
}
