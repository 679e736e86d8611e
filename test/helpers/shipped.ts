/**
 * The shipped contract and its signing core, for tests that exercise the shipped spec. The
 * library itself has no such default below its entry points; tests bind it here, once.
 */
import { shippedContract } from '../../src/contract/load.ts'
import { signingFor } from '../../src/signing/index.ts'

export const contract = shippedContract()
export const signing = signingFor(contract)
export const {
  buildRequest,
  compiledMessage,
  digestOf,
  domainFields,
  kindFields,
  messageFromBody,
  messageVariant,
  optionsDomain,
  optionsKinds,
  perpDomain,
  perpTypedData,
  recoverPerpSigner,
  separatorFor,
  signOptions,
  signPerpAction,
  typedDataFor,
  verifyOptions,
} = signing
