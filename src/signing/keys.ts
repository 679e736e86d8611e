import { cryptoBackend } from './crypto.ts'
import { privateKeyBytes } from './hex.ts'
import { addressOfPublicKey } from './signature.ts'
import type { Hex } from './types.ts'

/** Throws a one-line SigningInputError unless `key` is a usable private key; the key is never echoed. */
export function checkPrivateKey(key: unknown): asserts key is Hex {
  const secp = cryptoBackend().secp
  privateKeyBytes(key, (b) => secp.privateKeyVerify(b))
}

/** The checksummed address of a private key (the key itself is never echoed in errors). */
export function addressOf(privateKey: Hex): Hex {
  const secp = cryptoBackend().secp
  const key = privateKeyBytes(privateKey, (b) => secp.privateKeyVerify(b))
  return addressOfPublicKey(secp.publicKeyCreate(key, false))
}
