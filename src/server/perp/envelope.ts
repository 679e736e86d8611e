/**
 * The perpetuals venue's response envelope. Its SDKs raise their API error only on HTTP 200
 * `{status: "err"}` (an HTTP error becomes a transport failure), so every refusal of the
 * request itself travels this way; per-item outcomes are statuses of an `ok` envelope.
 */
import { json, type Reply } from '../reply.ts'

export type PerpStatus =
  | 'success'
  | { resting: { oid: number; cloid?: string } }
  | { filled: { totalSz: string; avgPx: string; oid: number; cloid?: string } }
  | { error: string }

export function envelopeOk(type: 'order' | 'cancel', statuses: PerpStatus[], headers: Record<string, string> = {}): Reply {
  return json(200, { status: 'ok', response: { type, data: { statuses } } }, headers)
}

export function envelopeErr(message: string, headers: Record<string, string> = {}): Reply {
  return json(200, { status: 'err', response: message }, headers)
}
