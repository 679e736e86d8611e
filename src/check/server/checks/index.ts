/** Every check of `oec check server`, in run order (the checks over the whole run's responses last). */
import type { FullContract } from '../../../contract/index.ts'
import type { LoadedFile } from '../../../vectors/load.ts'
import type { Check } from '../types.ts'
import { authChecks } from './auth.ts'
import { errorChecks } from './errors.ts'
import { mutationChecks } from './mutation.ts'
import { nonceChecks } from './nonce.ts'
import { perpChecks } from './perp.ts'
import { perpVenueChecks } from './perp-venue.ts'
import { moreLimitChecks, positionChecks, rateLimitChecks } from './ratelimit.ts'
import { robustnessChecks } from './robustness.ts'
import { routeChecks } from './route.ts'
import { vectorChecks } from './vectors.ts'
import { wsChecks } from './ws.ts'
import { miscChecks } from './misc.ts'

const LAST = new Set(['err.body-shape', 'err.catalog-codes'])

/** `vectorFiles`: the vectors of a contract other than the shipped one (see `vectorsFor`). */
export function allChecks(spec: FullContract, vectorFiles?: readonly LoadedFile[]): Check[] {
  const checks = [
    ...authChecks,
    ...vectorChecks(vectorFiles),
    ...nonceChecks,
    ...routeChecks,
    ...wsChecks,
    ...rateLimitChecks,
    ...positionChecks,
    ...moreLimitChecks,
    ...perpChecks,
    ...perpVenueChecks,
    ...miscChecks,
    ...mutationChecks(spec),
    ...robustnessChecks,
    ...errorChecks,
  ]
  return [...checks.filter((c) => !LAST.has(c.id)), ...checks.filter((c) => LAST.has(c.id))]
}
