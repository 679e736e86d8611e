/**
 * Error codes named in types: `Code<'nonce_reused'>` is the literal `'nonce_reused'`, checked
 * against the shipped catalog, so a misspelled code in a union does not compile.
 */
import type { KnownErrorCode } from './generated/errors.ts'

export type { KnownErrorCode }
export type Code<C extends KnownErrorCode> = C
