/**
 * The fixed run-time part of client.ts: signer, nonce and fetch types (structural, so the file
 * compiles with the ES2022 lib alone), value checks, the builders (a signed body, a batch of
 * signed items, the perp Agent over a msgpack action hash), retries and results. It walks the
 * generated tables (`runtimeTables`); nothing here names an operation or a field list.
 */
import { bigEndian, integer, msgpack, parseJson, toJson } from './encoding.ts';
import type { Hex, KeyOrder, OperationPlan, Plan, PerpPlan, TypedDataPayload } from './model.ts';
import { type RuntimeErrorCode, runtimeTables } from './tables.ts';

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

/** `globalThis.fetch` fits, as does any function of this shape. */
export type Fetch = (url: string, init: FetchInit) => Promise<FetchResponse>;

/** keccak256 of bytes as hex (viem's or ox's `keccak256` fits): the perp action hash. */
export type Keccak256 = (bytes: Uint8Array) => Hex;

/** What the client uses from the host, read off globalThis so the types need nothing past ES2022. */
const host = globalThis as unknown as { fetch?: Fetch; setTimeout(callback: () => void, ms: number): unknown };

/** Any `signTypedData(typedData) → hex` function. */
export type SignTypedData = (typedData: TypedDataPayload) => Promise<Hex>;

/** A viem account (`privateKeyToAccount`), a viem wallet client with an account, or a plain function. */
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
  readonly domain?: TypedDataPayload['domain'] | undefined;
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
  ? Omit<T, 'signature' | 'nonce' | 'wallet'> & ('wallet' extends keyof T ? { wallet?: T['wallet'] } : unknown)
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

/** The request body of an operation of `paths` (its first media type). */
export type RequestBodyOf<Op> = Op extends { requestBody?: infer B }
  ? NonNullable<B> extends { content: infer C }
    ? C[keyof C]
    : never
  : never;

/** The query parameters of an operation of `paths`. */
export type QueryOf<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** The path parameters of an operation of `paths`. */
export type PathOf<Op> = Op extends { parameters: { path?: infer P } } ? NonNullable<P> : never;

/** The body of a 2xx answer of an operation of `paths`, as openapi-fetch's `data`. */
export type SuccessData<Op> = Op extends { responses: infer R }
  ? { [S in keyof R]: `${S & number}` extends `2${string}` ? (R[S] extends { content: infer C } ? C[keyof C] : undefined) : never }[keyof R]
  : never;

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** The signer's answer as the service accepts it: 65 bytes, low s, v 27 or 28 (0 and 1 are rewritten). */
export function checkSignature(signature: unknown): Hex {
  if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]{130}$/.test(signature)) {
    throw new Error('the signer returned no 65-byte hex signature');
  }
  const r = BigInt(`0x${signature.slice(2, 66)}`);
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  let v = Number.parseInt(signature.slice(130), 16);
  if (v === 0 || v === 1) v += 27;
  if (v !== 27 && v !== 28) throw new Error(`the signer returned v = ${v}; the service takes 27 or 28`);
  if (r === 0n || r >= SECP256K1_N || s === 0n || s >= SECP256K1_N) throw new Error('the signer returned an out-of-range signature');
  if (s > SECP256K1_N / 2n) throw new Error('the signer returned a high-s signature, which the service refuses');
  return `0x${signature.slice(2, 130)}${v.toString(16)}` as Hex;
}

/** A value of an EIP-712 field, checked against its type: a number price or a string nonce never gets signed. */
function checked(field: string, type: string, value: unknown): string | bigint | boolean {
  const bits = /^u?int(\d*)$/.exec(type);
  if (bits) {
    const size = BigInt(bits[1] || '256');
    const min = type.startsWith('u') ? 0n : -(1n << (size - 1n));
    const max = type.startsWith('u') ? (1n << size) - 1n : (1n << (size - 1n)) - 1n;
    if (typeof value !== 'bigint' || value < min || value > max) throw new TypeError(`${field} must be a bigint in ${min}..${max}`);
    return value;
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw new TypeError(`${field} must be a boolean`);
    return value;
  }
  if (typeof value !== 'string') throw new TypeError(`${field} must be a string, signed and sent exactly as written`);
  if (type === 'address' && !/^0x[0-9a-fA-F]{40}$/.test(value)) throw new TypeError(`${field} must be a 0x-prefixed 20-byte address`);
  if (type.startsWith('bytes') && !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw new TypeError(`${field} must be 0x-prefixed hex`);
  // Addresses are 20 bytes whatever their case; lower case keeps checksumming signers quiet.
  return type === 'address' ? value.toLowerCase() : value;
}

function signerAddress(signer: Signer): string | undefined {
  return typeof signer === 'function' ? undefined : (signer.address ?? signer.account?.address);
}

type MessageId = keyof typeof runtimeTables.typedData;
type BodySchema = keyof typeof runtimeTables.bodies;

/** @internal Picks the body schema and its struct variant from the fields present, then signs. */
export async function build(schemas: readonly string[], input: Record<string, unknown>, options: BuildOptions): Promise<SignedRequest> {
  const given = Object.keys(input).filter((k) => input[k] !== undefined);
  for (const schema of schemas as readonly BodySchema[]) {
    const variants: readonly { message: string; whenPresent?: string; whenAbsent?: string }[] = runtimeTables.bodies[schema].variants;
    const variant = variants.find(
      (v) =>
        (v.whenPresent === undefined || given.includes(v.whenPresent)) && (v.whenAbsent === undefined || !given.includes(v.whenAbsent)),
    );
    if (!variant) continue;
    const id = variant.message as MessageId;
    const td = runtimeTables.typedData[id];
    const fields: readonly { name: string; type: string }[] = (td.types as Record<string, readonly { name: string; type: string }[]>)[
      td.primaryType
    ]!;
    const bodyName = (f: string): string => (runtimeTables.bodyFields[id] as Record<string, string>)[f] ?? f;
    const accepted = fields.map((f) => bodyName(f.name)).filter((b) => b !== 'nonce');
    if (!given.every((k) => accepted.includes(k))) continue;
    const wallet = input.wallet ?? signerAddress(options.signer);
    const nonce = await nextNonce(options.nonce, typeof wallet === 'string' ? wallet : (signerAddress(options.signer) ?? ''));
    // Only the typed data's fields are read from `values`, so `wallet` may be an undefined key here.
    const values: Record<string, unknown> = { ...input, nonce, wallet: fields.some((f) => f.name === 'wallet') ? wallet : input.wallet };
    const message: TypedDataPayload['message'] = {};
    for (const f of fields) message[f.name] = checked(bodyName(f.name), f.type, values[bodyName(f.name)]);
    const payload: TypedDataPayload = { domain: options.domain ?? td.domain, types: td.types, primaryType: td.primaryType, message };
    const signature = await sign(options.signer, payload);
    const signatureField = runtimeTables.bodies[schema].signature;
    const parts = fields.map((f) => `${JSON.stringify(bodyName(f.name))}:${toJson(values[bodyName(f.name)])}`);
    parts.push(`${JSON.stringify(signatureField)}:${JSON.stringify(signature)}`);
    return { body: `{${parts.join(',')}}`, typedData: payload, signature, nonce: nonce as bigint };
  }
  const known = (schemas as readonly BodySchema[]).flatMap((s) => runtimeTables.bodies[s].variants.map((v) => v.message)).join(' or ');
  throw new TypeError(`no signed body (${known}) takes the fields ${given.join(', ') || '(none)'}`);
}

/** The next nonce for `owner`. A JavaScript caller can pass anything: the value is checked where it is signed. */
async function nextNonce(source: bigint | NonceSource, owner: string): Promise<unknown> {
  return typeof source === 'object' && source !== null ? await source.next(owner) : source;
}

async function sign(signer: Signer, payload: TypedDataPayload): Promise<Hex> {
  return checkSignature(typeof signer === 'function' ? await signer(payload) : await signer.signTypedData(payload));
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

/** The action rebuilt in the key order the venue hashes it in (the schemas' `properties` order). */
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

export interface PerpBuildOptions {
  readonly signer: Signer;
  /** A fixed nonce or a source of them (keyed by `vaultAddress`, else the signer's address). */
  readonly nonce: bigint | NonceSource;
  /** Hashes the msgpack action: viem's `keccak256` fits. */
  readonly keccak256: Keccak256;
  /** The Agent's `source`: 'a' on mainnet (default), 'b' on testnet. */
  readonly isMainnet?: boolean | undefined;
  /** Replaces the perp signing domain whole. */
  readonly domain?: TypedDataPayload['domain'] | undefined;
}

export interface PerpSignedRequest extends SignedRequest {
  /** keccak256(msgpack(action) ‖ nonce ‖ vault flag [‖ vault] [‖ 0x00 ‖ expiresAfter]): the Agent's hash field. */
  readonly connectionId: Hex;
}

/**
 * @internal Signs a perp request as the venue does: the action in the spec's key order, hashed with the
 * nonce, the vault (optional) and `expiresAfter` (optional), and that hash signed as the Agent.
 */
export async function buildPerp(plan: PerpPlan, input: Record<string, unknown>, options: PerpBuildOptions): Promise<PerpSignedRequest> {
  if (input === null || typeof input !== 'object') throw new TypeError('a perp request must be an object');
  if (typeof options.keccak256 !== 'function')
    throw new TypeError("perp actions are hashed with keccak256: pass one (viem's keccak256 fits)");
  const action = ordered(plan.order, input[plan.action]);
  if (action === null || typeof action !== 'object') throw new TypeError(plan.action + ' must be an object');
  const vault = input.vaultAddress ?? null;
  if (vault !== null && (typeof vault !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(vault)))
    throw new TypeError('vaultAddress must be a 0x-prefixed 20-byte address');
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
  if (typeof connectionId !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(connectionId))
    throw new TypeError('keccak256 must return 32 bytes as 0x-prefixed hex');
  const td = runtimeTables.typedData[plan.message as MessageId];
  const message = { source: options.isMainnet === false ? 'b' : 'a', [plan.derived]: connectionId.toLowerCase() };
  const payload: TypedDataPayload = { domain: options.domain ?? td.domain, types: td.types, primaryType: td.primaryType, message };
  const signature = await sign(options.signer, payload);
  const rsv = { r: '0x' + signature.slice(2, 66), s: '0x' + signature.slice(66, 130), v: Number.parseInt(signature.slice(130), 16) };
  const parts = [
    JSON.stringify(plan.action) + ':' + toJson(action),
    '"nonce":' + nonce,
    JSON.stringify(plan.signature) + ':' + toJson(rsv),
  ];
  for (const [k, v] of Object.entries(input)) {
    if (k !== plan.action && k !== 'nonce' && k !== plan.signature && v !== undefined) parts.push(JSON.stringify(k) + ':' + toJson(v));
  }
  return { body: '{' + parts.join(',') + '}', typedData: payload, signature, nonce, connectionId: connectionId.toLowerCase() as Hex };
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
  /** Default: the global `fetch`. */
  readonly fetch?: Fetch;
  /** Default: `monotonicNonces()`, one increasing sequence per wallet. */
  readonly nonces?: NonceSource;
  /** `false` sends once; otherwise Retry-After plus exponential backoff on consecutive 429s. */
  readonly retry?: RetryOptions | false;
  /** Replaces the signing domain of the field-by-field signed operations. */
  readonly domain?: TypedDataPayload['domain'] | undefined;
  /** Hashes perp actions (viem's `keccak256`); needed only by perp operations. */
  readonly keccak256?: Keccak256;
  /** Perp Agent `source`: 'a' on mainnet (default), 'b' on testnet. */
  readonly isMainnet?: boolean | undefined;
  /** Replaces the perp signing domain. */
  readonly perpDomain?: TypedDataPayload['domain'] | undefined;
  /** Default: `parseJson`, exact for integers past 2^53. */
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
  readonly code: RuntimeErrorCode | null;
  /** For people: show or log it, never parse it. */
  readonly message: string | null;
  readonly body: unknown;
}

/** openapi-fetch's `{ data, error, response }`, plus the rate-limit counters and what was signed (`R`). */
export type Result<T, R = SignedRequest> =
  | { readonly data: T; readonly error?: undefined; readonly response: FetchResponse; readonly rateLimit: RateLimit; readonly request: R }
  | {
      readonly data?: undefined;
      readonly error: ApiError;
      readonly response: FetchResponse;
      readonly rateLimit: RateLimit;
      readonly request: R;
    };

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
    limit: header(response, runtimeTables.headers.limit),
    remaining: header(response, runtimeTables.headers.remaining),
    reset: header(response, runtimeTables.headers.reset),
    retryAfter: header(response, runtimeTables.headers.retryAfter),
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
    const init: FetchInit =
      body === undefined ? { method, headers: {} } : { method, headers: { 'content-type': 'application/json' }, body };
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
    code: typeof fields.code === 'string' ? (fields.code as RuntimeErrorCode) : null,
    message: typeof fields.message === 'string' ? fields.message : null,
    body,
  };
  return { error, response, rateLimit, request };
}

/** `?k=v&...` of the defined values, encoded for a URL. */
function queryString(query: unknown): string {
  if (query === undefined || query === null) return '';
  if (typeof query !== 'object') throw new TypeError('query parameters must be an object');
  const pairs = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(String(v)));
  return pairs.length === 0 ? '' : '?' + pairs.join('&');
}

/** The path with each `{name}` filled from the input's field of that name, encoded for a URL. */
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

/** @internal The one path every client method takes: build the request its plan describes, send it, read the answer. */
export function caller(options: ClientOptions): (id: keyof typeof runtimeTables.plans, input: unknown) => Promise<Result<any, any>> {
  const nonces = options.nonces ?? monotonicNonces();
  const send = sender(options);
  const parse = options.parseJson ?? parseJson;
  const signing: BuildOptions = {
    signer: options.signer,
    nonce: nonces,
    domain: options.domain,
  };
  return async (id, input) => {
    const plan: OperationPlan = runtimeTables.plans[id];
    let url = options.baseUrl + filledPath(plan, input);
    let body: string | undefined;
    let request: unknown;
    if (plan.body === null) url += queryString(queryPart(plan, input));
    else if ('perp' in plan.body) {
      request = await buildPerp(plan.body.perp, input as Record<string, unknown>, {
        signer: options.signer,
        nonce: nonces,
        keccak256: options.keccak256 as Keccak256,
        isMainnet: options.isMainnet,
        domain: options.perpDomain,
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
