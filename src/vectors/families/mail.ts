/**
 * The EIP-712 specification's own `Mail` example: the one place where the generic encoder is
 * anchored outside this toolkit. The expected digest and signature below are the published
 * values (EIP-712 text and its reference implementation; the same values appear in
 * eth-sig-util's `signedTypeData` test); the generator refuses to write the file if the
 * toolkit's encoder disagrees.
 */
import * as Hash from 'ox/Hash'
import * as OxHex from 'ox/Hex'
import type { VectorsContract } from '../model.ts'
import { addressOf, signTyped } from '../build.ts'
import type { Hex, TypedDataJson, VectorFile } from '../model.ts'
import { FamilyBuilder } from './common.ts'

/** Published values of the EIP-712 Mail example (private key keccak256("cow")). */
export const MAIL_PUBLISHED = {
  digest: '0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2',
  signature:
    '0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c',
  signer: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826',
} as const

export function mailTypedData(contents = 'Hello, Bob!', chainId = 1): TypedDataJson {
  return {
    domain: { name: 'Ether Mail', version: '1', chainId, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      Person: [
        { name: 'name', type: 'string' },
        { name: 'wallet', type: 'address' },
      ],
      Mail: [
        { name: 'from', type: 'Person' },
        { name: 'to', type: 'Person' },
        { name: 'contents', type: 'string' },
      ],
    },
    primaryType: 'Mail',
    message: {
      from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
      to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
      contents,
    },
  }
}

export async function mailFamily(spec: VectorsContract): Promise<VectorFile> {
  const b = new FamilyBuilder(spec, 'eip712-mail', "EIP-712 generic encoding (the specification's Mail example)", [
    'Case 1 pins the digest and signature published with the EIP-712 specification (key keccak256("cow")).',
    'The other cases vary the example (contents, chain) and are produced by the same encoder that reproduces case 1.',
  ])
  const key = Hash.keccak256(OxHex.fromString('cow')) as Hex
  const signer = addressOf(key)
  b.group('Mail', 'Mail', 'EIP-712 specification, Example.js / eth-sig-util signedTypeData')
  const variants: [string, TypedDataJson, string[]][] = [
    ["the EIP-712 specification's Mail example with its published digest and signature", mailTypedData(), ['PublishedReference']],
    ['Mail example with non-ASCII contents', mailTypedData('Grüße, Bob! 👋'), ['UnicodeString']],
    ['Mail example with empty contents', mailTypedData(''), ['Valid']],
    ['Mail example under chainId 999', mailTypedData('Hello, Bob!', 999), ['Valid']],
  ]
  for (const [comment, td, flags] of variants) {
    const { digest, signature } = await signTyped(td, key)
    if (
      flags.includes('PublishedReference') &&
      (digest !== MAIL_PUBLISHED.digest || signature !== MAIL_PUBLISHED.signature || signer !== MAIL_PUBLISHED.signer)
    ) {
      throw new Error(`the EIP-712 Mail example does not reproduce: digest ${digest}, signature ${signature}`)
    }
    b.push({
      tcId: b.tcId(),
      comment,
      rules: ['SIG-8', 'SIG-11'],
      flags,
      level: 'stated',
      result: 'valid',
      server: 'accepted',
      kind: 'Mail',
      privateKey: key,
      signer,
      wallet: null,
      typedData: td,
      digest,
      signature,
    })
  }
  return b.build()
}
