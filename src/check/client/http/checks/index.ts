/**
 * The client-behaviour checks of `oec check client --http`, in report order: one typed registry
 * (a scenario naming a check that does not exist does not compile).
 */
import { answerCheck } from './answer.ts'
import { backoffCheck } from './backoff.ts'
import type { ClientCheck } from './model.ts'
import { nonceOrderCheck } from './nonce-order.ts'
import { nonceReuseCheck } from './nonce-reuse.ts'
import { orderStatusCheck } from './order-status.ts'
import { retryAfterCheck } from './retry-after.ts'
import { routeCheck } from './route.ts'
import { signatureCheck } from './signature.ts'
import { unknownCodeCheck } from './unknown-code.ts'

export const CLIENT_CHECKS = [
  answerCheck,
  orderStatusCheck,
  retryAfterCheck,
  backoffCheck,
  unknownCodeCheck,
  nonceReuseCheck,
  nonceOrderCheck,
  routeCheck,
  signatureCheck,
] as const

export type CheckName = (typeof CLIENT_CHECKS)[number]['name']

export function clientCheck(name: CheckName): ClientCheck {
  return CLIENT_CHECKS.find((c) => c.name === name)!
}

export type { ClientCheck, CheckInput, Verdict } from './model.ts'
