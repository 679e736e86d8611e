/**
 * Error replies built from the spec's catalog: the HTTP status, the fixed message (where the
 * contract fixes one) and the legacy `error` field all come from the catalog entry, never from
 * a table restated here.
 */
import type { ErrorCodeEntry, FullContract } from '../contract/index.ts'
import type { KnownErrorCode, KnownJsonRpcErrorCode } from '../contract/generated/errors.ts'

/** A code the server may emit: one the shipped catalog lists, so a typo does not compile. */
export type ServerCode = KnownErrorCode | KnownJsonRpcErrorCode
import type { Reply } from './reply.ts'

export class ErrorCatalog {
  private readonly byCode = new Map<string | number, ErrorCodeEntry>()

  constructor(spec: FullContract) {
    for (const e of spec.catalog) this.byCode.set(e.code, e)
  }

  entry(code: ServerCode): ErrorCodeEntry {
    const e = this.byCode.get(code)
    // A code missing from the spec is refused at start-up (contract/server-needs.ts).
    if (!e) throw new Error(`error code ${String(code)} is not in the spec's catalog`)
    return e
  }

  /** The catalog's fixed message for `code`, else `fallback`. */
  message(code: KnownErrorCode, fallback: string): string {
    return this.entry(code).message ?? fallback
  }

  /**
   * `{code, message[, error], ...extra}` with the catalog's first HTTP status. A code with a
   * fixed message in the catalog always carries that message (the contract's auth messages).
   */
  reply(code: KnownErrorCode, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Reply {
    const e = this.entry(code)
    const body: Record<string, unknown> = { code, message: e.message ?? message }
    if (e.legacyError !== null) body.error = e.legacyError
    Object.assign(body, extra)
    return { status: e.httpStatus[0] ?? 400, headers, body }
  }
}
