/**
 * The HTTP testee protocol of `oec check client --http` (docs/testee-protocol.md), fixed so that
 * clients in any language can implement it: the environment a client starts with, the task lines
 * it reads on stdin and the one answer line per task it prints on stdout. Pure: no I/O here.
 */
import type { Route, Side, Tif } from '../../../contract/generated/types.ts'

/** The environment variables a client under test starts with. */
export const ENV = {
  baseUrl: 'OEC_BASE_URL',
  privateKey: 'OEC_PRIVATE_KEY',
  chainId: 'OEC_CHAIN_ID',
  domainName: 'OEC_DOMAIN_NAME',
} as const

export interface PlaceTask {
  readonly id: string
  readonly action: 'place'
  readonly order: {
    readonly symbol: string
    readonly side: Side
    readonly size: string
    readonly price: string
    readonly tif: Tif
    /** Absent: the client decides what to send. */
    readonly route?: Route
    readonly client_id: string
  }
}

export type CancelTask =
  | { readonly id: string; readonly action: 'cancel'; readonly order_id: string }
  | { readonly id: string; readonly action: 'cancel'; readonly client_id: string }

export type Task = PlaceTask | CancelTask

/** What the client reports for a task: the last answer the server gave it. */
export interface TaskAnswer {
  readonly id: string
  readonly http_status: number | null
  readonly code: string | null
  readonly order_status: string | null
  readonly order_id?: string | null
  readonly reason?: string | null
}

export type ParsedAnswer = { ok: true; answer: TaskAnswer } | { ok: false; problem: string }

const isIntOrNull = (v: unknown) => v === null || (typeof v === 'number' && Number.isInteger(v))
const isStringOrNull = (v: unknown) => v === null || typeof v === 'string'

/** One stdout line read as an answer, or what is wrong with it. */
export function parseAnswerLine(line: string): ParsedAnswer {
  let v: unknown
  try {
    v = JSON.parse(line)
  } catch {
    return { ok: false, problem: `not JSON: ${clip(line)}` }
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return { ok: false, problem: `not a JSON object: ${clip(line)}` }
  const a = v as Record<string, unknown>
  if (typeof a.id !== 'string') return { ok: false, problem: `no string "id": ${clip(line)}` }
  const problems: string[] = []
  if (!('http_status' in a) || !isIntOrNull(a.http_status)) problems.push('"http_status" must be an integer or null')
  if (!('code' in a) || !isStringOrNull(a.code)) problems.push('"code" must be a string or null')
  if (!('order_status' in a) || !isStringOrNull(a.order_status)) problems.push('"order_status" must be a string or null')
  if (problems.length > 0) return { ok: false, problem: `answer ${a.id}: ${problems.join('; ')}` }
  return { ok: true, answer: a as unknown as TaskAnswer }
}

export function clip(s: string, n = 160): string {
  const one = s.replace(/\s+/g, ' ').trim()
  return one.length > n ? one.slice(0, n - 3) + '...' : one
}
