/**
 * Perp actions, signed the way the perpetuals venue signs its L1 actions (the API documentation's
 * perp layer): an Agent{source, connectionId} struct under the perp domain, where connectionId is
 * keccak256(msgpack(action) ‖ nonce u64 BE ‖ 0x00 | 0x01 vault [‖ 0x00 ‖ expiresAfter u64 BE]).
 */
import { encode } from '@msgpack/msgpack'
import { bytesToHex, concat, keccak256, numberToHex, type Hex, type TypedDataDomain } from 'viem'
import { ZERO_ADDRESS } from './typed-data.ts'

export const PERP_DOMAIN: TypedDataDomain = { name: 'Exchange', version: '1', chainId: 1337, verifyingContract: ZERO_ADDRESS }
export const AGENT_TYPES = {
  Agent: [
    { name: 'source', type: 'string' },
    { name: 'connectionId', type: 'bytes32' },
  ],
} as const

export interface PerpMessage {
  action: unknown
  nonce: bigint
  vaultAddress: Hex | null
  expiresAfter: bigint | null
  isMainnet: boolean
}

/**
 * The venue's msgpack writes every integer in its smallest form. @msgpack/msgpack does so for
 * numbers up to 32 bits; with useBigInt64 a larger *number* would become a float64, so the JSON
 * reader (`parseRequest` in client.ts) hands integers past 32 bits over as bigints (uint64 / int64).
 */
function msgpack(action: unknown): Uint8Array {
  return encode(action, { useBigInt64: true })
}

export function actionHash(m: Omit<PerpMessage, 'isMainnet'>): Hex {
  const parts: Hex[] = [bytesToHex(msgpack(m.action)), numberToHex(m.nonce, { size: 8 })]
  parts.push(m.vaultAddress === null ? '0x00' : concat(['0x01', m.vaultAddress]))
  if (m.expiresAfter !== null) parts.push('0x00', numberToHex(m.expiresAfter, { size: 8 }))
  return keccak256(concat(parts))
}

/** viem typed data of the Agent message (domain: the perp domain unless the caller gives another). */
export function agentTypedData(m: PerpMessage, domain: TypedDataDomain = PERP_DOMAIN) {
  return {
    domain,
    types: AGENT_TYPES,
    primaryType: 'Agent' as const,
    message: { source: m.isMainnet ? 'a' : 'b', connectionId: actionHash(m) },
  }
}
