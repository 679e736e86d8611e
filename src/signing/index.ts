/**
 * Signing core: EIP-712 options messages and perp Agent actions, lossless bodies, fast
 * verification. Types and domains come from a contract's `x-eip712` layer: `signingFor(contract)`.
 */
export * from './types.ts'
export { parseBody, readUint64, escapePointerToken, type ParsedBody, type ParsedBodyOk } from './body.ts'
export { cryptoBackend, nativeCryptoAvailable, setCryptoBackend, keccak256 as keccak256Bytes, type CryptoBackendName } from './crypto.ts'
export { setStringHashCache } from './eip712.ts'
export { signingFor, type Signing } from './signing.ts'
export {
  createOptionsSigning,
  eip712DomainType,
  exactDomain,
  isExactDomain,
  type CompiledMessage,
  type OptionsSigning,
  type OptionsTypedData,
  type VerifyOptions,
} from './options.ts'
export { createPerpSigning, perpActionHash, type PerpSignInput, type PerpSigning } from './perp.ts'
export {
  addressOfPublicKey,
  checksum as checksumAddress,
  highSTwin,
  joinSignature,
  recoverDigest,
  recoverSignature,
  SECP256K1_N,
  signDigest,
  splitSignature,
  withVForm,
} from './signature.ts'
export { bodyText, jsonText, RawJson, setEntry, type BodyEntries, type BodyValue } from './wire.ts'
export { packb as perpMsgpack } from './msgpack.ts'
export { addressOf, checkPrivateKey } from './keys.ts'
export { answerLine, answerRequest, serializeAnswer, type ProtocolAnswer } from './protocol.ts'
