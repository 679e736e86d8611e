/**
 * The two primitives signing needs, keccak-256 and secp256k1, behind one switch: native bindings
 * (`keccak`, `secp256k1`, prebuilt N-API) when they load, else their pure-JS twins shipped in the
 * same packages (`keccak`'s JS sponge, `secp256k1/elliptic`). Both sides expose the same calls,
 * so the test suite runs once per backend (`OEC_PURE_JS=1` or `setCryptoBackend('js')`).
 */
import { createRequire } from 'node:module'
import { dirname } from 'node:path'

const require = createRequire(import.meta.url)

/** The keccak sponge state both `keccak` implementations share (native addon and lib/keccak.js). */
interface KeccakState {
  initialize(rate: number, capacity: number): void
  absorb(data: Uint8Array): void
  squeeze(length: number): Uint8Array
}

/** The subset of the `secp256k1` package API used here (identical for bindings and elliptic). */
interface Secp {
  privateKeyVerify(key: Uint8Array): boolean
  publicKeyCreate(key: Uint8Array, compressed?: boolean): Uint8Array
  ecdsaSign(msg32: Uint8Array, key: Uint8Array): { signature: Uint8Array; recid: number }
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed?: boolean, output?: Uint8Array): Uint8Array
}

export type CryptoBackendName = 'native' | 'js'

export interface CryptoBackend {
  readonly name: CryptoBackendName
  /** keccak-256 of `data` as a fresh 32-byte Buffer. */
  keccak256(data: Uint8Array): Buffer
  readonly secp: Secp
}

function sponge(State: new () => KeccakState): (data: Uint8Array) => Buffer {
  // One state object reused: initialize() resets it, so no per-call allocation of a stream object.
  const state = new State()
  return (data) => {
    state.initialize(1088, 512)
    state.absorb(data)
    return state.squeeze(32) as Buffer
  }
}

function loadNative(): CryptoBackend | null {
  try {
    const gypBuild = require('node-gyp-build') as (dir: string) => unknown
    const State = gypBuild(dirname(require.resolve('keccak/package.json'))) as new () => KeccakState
    if (typeof State !== 'function') return null
    const secp = require('secp256k1/bindings') as Secp
    return { name: 'native', keccak256: sponge(State), secp }
  } catch {
    return null
  }
}

let jsBackend: CryptoBackend | undefined
function loadJs(): CryptoBackend {
  jsBackend ??= {
    name: 'js',
    keccak256: sponge(require('keccak/lib/keccak.js') as new () => KeccakState),
    secp: require('secp256k1/elliptic') as Secp,
  }
  return jsBackend
}

const native = loadNative()
let current: CryptoBackend = process.env.OEC_PURE_JS === '1' || native === null ? loadJs() : native

/** The backend in use. */
export function cryptoBackend(): CryptoBackend {
  return current
}

/** Whether the native bindings loaded on this machine. */
export function nativeCryptoAvailable(): boolean {
  return native !== null
}

const listeners: (() => void)[] = []

/** Registers a hook run when the backend changes (memoised hashes are dropped, so each backend computes its own). */
export function onCryptoBackendChange(fn: () => void): void {
  listeners.push(fn)
}

/** Forces a backend (tests run the suite on both). Asking for `native` where it did not load keeps `js`. */
export function setCryptoBackend(name: CryptoBackendName): CryptoBackendName {
  const next = name === 'native' && native ? native : loadJs()
  if (next !== current) {
    current = next
    for (const fn of listeners) fn()
  }
  return current.name
}

export function keccak256(data: Uint8Array): Buffer {
  return current.keccak256(data)
}
