/**
 * The scenarios of `oec check client --http`: each a named script of server answers and the
 * tasks a client is given under it. A step of a task's script answers one request of that task
 * in place of the reference server (a request past the script goes to the reference server).
 * Retry-After values stay short (1-3 s) so that the whole check runs in well under a minute.
 */
import type { Task } from './protocol.ts'

/** A scripted answer to one request. */
export type ScriptedAnswer =
  /** 429 `rate_limit_exceeded` with `Retry-After` and `retry_after_secs`. */
  | { readonly kind: 'rate-limited'; readonly retryAfter: number }
  /** 503 with `Retry-After` (the catalog's 503 code). */
  | { readonly kind: 'unavailable'; readonly retryAfter: number }
  /** A 4xx whose `code` no catalog lists, with a normal `{code, message}` body. */
  | { readonly kind: 'unknown-code' }
  /** 200 `REJECTED` with a `reason` that reads like an error code. */
  | { readonly kind: 'rejected' }
  /** The reference server's answer, held back this long. */
  | { readonly kind: 'slow'; readonly ms: number }
  /** The connection is closed before any answer (the request never reaches the reference server). */
  | { readonly kind: 'close' }

/** A cancel of an order placed by an earlier task: its id comes from the server's answer to that task. */
export interface CancelOf {
  readonly id: string
  readonly action: 'cancel'
  readonly orderIdOf: string
}

export interface ScenarioTask {
  readonly task: Task | CancelOf
  readonly script?: readonly ScriptedAnswer[]
}

/** The scenario ids, in report order: plan.ts pairs each with the checks that judge it. */
export type ScenarioId =
  | 'rate-limited'
  | 'consecutive-429'
  | 'unavailable'
  | 'unknown-code'
  | 'rejected'
  | 'slow-answer'
  | 'connection-closed'
  | 'cancel'
  | 'route-less'

export interface Scenario {
  readonly id: ScenarioId
  readonly title: string
  readonly tasks: readonly ScenarioTask[]
}

/** An answer to a request outside the task's script. */
export const FORWARD = { kind: 'forward' } as const

/** The scenarios, in report order, for orders in `symbol` (an instrument the reference server lists). */
export function scenarios(symbol: string): Scenario[] {
  const place = (id: string, clientId: string, withRoute = true): Task => ({
    id,
    action: 'place',
    order: {
      symbol,
      side: 'Buy',
      size: '1',
      price: '100',
      tif: 'gtc',
      ...(withRoute ? { route: 'book_only' as const } : {}),
      client_id: clientId,
    },
  })
  return [
    {
      id: 'rate-limited',
      title: '429 with Retry-After: 2 (header and retry_after_secs), then the order goes through',
      tasks: [{ task: place('t1', 'rl-1'), script: [{ kind: 'rate-limited', retryAfter: 2 }] }, { task: place('t2', 'rl-2') }],
    },
    {
      id: 'consecutive-429',
      title: 'four 429s in a row (Retry-After: 1 each): waits grow, or the client gives up',
      tasks: [
        { task: place('t1', 'c429-1'), script: Array.from({ length: 4 }, () => ({ kind: 'rate-limited' as const, retryAfter: 1 })) },
        { task: place('t2', 'c429-2') },
      ],
    },
    {
      id: 'unavailable',
      title: '503 with Retry-After: 1 on POST /order',
      tasks: [{ task: place('t1', 'u503-1'), script: [{ kind: 'unavailable', retryAfter: 1 }] }, { task: place('t2', 'u503-2') }],
    },
    {
      id: 'unknown-code',
      title: 'a 4xx with a code no catalog lists, then a normal task',
      tasks: [{ task: place('t1', 'unk-1'), script: [{ kind: 'unknown-code' }] }, { task: place('t2', 'unk-2') }],
    },
    {
      id: 'rejected',
      title: '200 REJECTED whose reason reads like an error code',
      tasks: [{ task: place('t1', 'rej-1'), script: [{ kind: 'rejected' }] }, { task: place('t2', 'rej-2') }],
    },
    {
      id: 'slow-answer',
      title: 'the answer to POST /order comes after 1.5 s',
      tasks: [{ task: place('t1', 'slow-1'), script: [{ kind: 'slow', ms: 1500 }] }, { task: place('t2', 'slow-2') }],
    },
    {
      id: 'connection-closed',
      title: 'the connection is closed before the answer',
      tasks: [{ task: place('t1', 'cc-1'), script: [{ kind: 'close' }] }, { task: place('t2', 'cc-2') }],
    },
    {
      id: 'cancel',
      title: 'a cancel of an unknown order (200 REJECTED), then cancels by order id and by client id',
      tasks: [
        { task: { id: 't1', action: 'cancel', order_id: '987654321' } },
        { task: place('t2', 'cx-2') },
        { task: { id: 't3', action: 'cancel', orderIdOf: 't2' } },
        { task: place('t4', 'cx-4') },
        { task: { id: 't5', action: 'cancel', client_id: 'cx-4' } },
      ],
    },
    {
      id: 'route-less',
      title: 'place tasks without route: the client decides what to send',
      tasks: [{ task: place('t1', 'nr-1', false) }, { task: place('t2', 'nr-2', false) }],
    },
  ]
}
