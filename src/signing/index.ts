/**
 * Signing core: EIP-712 options messages and perp Agent actions, lossless bodies, fast
 * verification. Types and domains come from the spec's `x-eip712` extension.
 */
export * from './types.ts'
export { parseBody, readUint64, escapePointerToken, type ParsedBody, type ParsedBodyOk } from './body.ts'
export { cryptoBackend, nativeCryptoAvailable, setCryptoBackend, keccak256 as keccak256Bytes, type CryptoBackendName } from './crypto.ts'
export { setStringHashCache } from './eip712.ts'
export {
  addressOfPublicKey,
  buildRequest,
  checksum as checksumAddress,
  digestOf,
  domainFields,
  eip712DomainType,
  exactDomain,
  isExactDomain,
  kindFields,
  messageFromBody,
  messageVariant,
  optionsDomain,
  optionsKinds,
  perpDomain,
  signDigest,
  signOptions,
  typedDataFor,
  verifyOptions,
} from './options.ts'
export { perpActionHash, perpTypedData, recoverPerpSigner, signPerpAction, type PerpSignInput } from './perp.ts'
export { packb as perpMsgpack } from './msgpack.ts'
export { addressOf, checkPrivateKey } from './keys.ts'
export { answerLine, answerRequest, serializeAnswer, type ProtocolAnswer } from './protocol.ts'
