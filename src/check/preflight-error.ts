/** What both runners' preflights throw: a wrong setup, found before any case runs (exit 2). */
import { OecError } from '../errors.ts'

/** The message is the whole line the CLI prints: the likely cause and the flag that fixes it. */
export class PreflightError extends OecError {
  override readonly name = 'PreflightError'
}

/** The tail of every preflight line. */
export const PREFLIGHT_SKIP = '; --no-preflight runs anyway'
