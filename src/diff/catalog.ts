/**
 * Semantic diff of the error-code catalog (`x-<service>-error-codes`): entries are matched by
 * surface and code, never by position, so reordering the list is not a change and a rename is
 * a removal plus an addition.
 */
import type { DiffSpec, WithLayer } from './input.ts'
import type { ErrorCodeEntry } from '../contract/model.ts'
import type { Collector } from './collect.ts'

const keyOf = (e: ErrorCodeEntry) => `${e.surface}:${String(e.code)}`
const sameSet = (a: readonly number[], b: readonly number[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join()

export function diffCatalog(base: WithLayer<'catalog'>, head: WithLayer<'catalog'>, c: Collector): void {
  const at = (spec: DiffSpec, e: ErrorCodeEntry) => `/${spec.catalogKey}/${e.index}`
  const hByKey = new Map(head.catalog.map((e) => [keyOf(e), e]))
  const bByKey = new Map(base.catalog.map((e) => [keyOf(e), e]))
  const removed = base.catalog.filter((e) => !hByKey.has(keyOf(e)))
  const added = head.catalog.filter((e) => !bByKey.has(keyOf(e)))

  // A JSON-RPC code that disappears while another with the same message appears was renumbered.
  const renumbered = new Map<ErrorCodeEntry, ErrorCodeEntry>()
  for (const r of removed.filter((e) => e.surface === 'jsonrpc')) {
    const label = r.message ?? r.description
    const candidates = added.filter(
      (a) => a.surface === 'jsonrpc' && (a.message ?? a.description) === label && ![...renumbered.values()].includes(a),
    )
    if (candidates.length === 1) renumbered.set(r, candidates[0]!)
  }

  for (const e of removed) {
    const to = renumbered.get(e)
    if (to) {
      c.add(
        'jsonrpc-error-code-changed',
        `${at(head, to)}/code`,
        `the JSON-RPC error code ${String(e.code)} (${e.message ?? e.description}) is now ${String(to.code)}; clients branch on the number`,
        {
          before: e.code,
          after: to.code,
        },
      )
    } else if (e.surface === 'jsonrpc') {
      c.add(
        'jsonrpc-error-code-removed',
        at(base, e),
        `the JSON-RPC error code ${String(e.code)} was removed from ${base.catalogKey}; clients branch on the number`,
        { before: e.code },
      )
    } else {
      c.add(
        'error-code-removed',
        at(base, e),
        `the error code ${String(e.code)} was removed from ${base.catalogKey}; clients that branch on it never see it again`,
        { before: e.code },
      )
    }
  }
  const renumberedTo = new Set(renumbered.values())
  for (const e of added) {
    if (renumberedTo.has(e)) continue
    c.add('error-code-added', at(head, e), `the error code ${String(e.code)} was added to ${head.catalogKey}`, { after: e.code })
  }

  for (const h of head.catalog) {
    const b = bByKey.get(keyOf(h))
    if (!b) continue
    const p = at(head, h)
    const code = String(h.code)
    if (!sameSet(b.httpStatus, h.httpStatus)) {
      c.add(
        'error-code-status-changed',
        `${p}/http_status`,
        `the error code ${code} now comes with HTTP ${h.httpStatus.join('/') || 'none'} instead of ${b.httpStatus.join('/') || 'none'}`,
        {
          before: b.httpStatus,
          after: h.httpStatus,
        },
      )
    }
    if (!b.deprecated && h.deprecated) c.add('error-code-deprecated', `${p}/deprecated`, `the error code ${code} is now deprecated`)
    if (b.retryable !== h.retryable) {
      c.add(
        'error-code-attribute-changed',
        `${p}/retryable`,
        `the error code ${code} changed retryable from ${b.retryable} to ${h.retryable}`,
        // Stryker disable next-line StringLiteral: detail only tells findings at one pointer apart, and this pointer has one
        { before: b.retryable, after: h.retryable, detail: 'retryable' },
      )
    }
    if ((b.message ?? null) !== (h.message ?? null)) {
      c.add(
        'error-code-attribute-changed',
        `${p}/message`,
        `the error code ${code} changed its fixed message from ${JSON.stringify(b.message ?? null)} to ${JSON.stringify(h.message ?? null)}`,
        {
          before: b.message ?? null,
          after: h.message ?? null,
          // Stryker disable next-line StringLiteral: detail only tells findings at one pointer apart, and this pointer has one
          detail: 'message',
        },
      )
    }
    if (b.legacyError !== h.legacyError) {
      c.add(
        'error-code-legacy-error-changed',
        `${p}/legacy_error`,
        `the legacy error value of ${code} changed from ${JSON.stringify(b.legacyError)} to ${JSON.stringify(h.legacyError)}`,
        {
          before: b.legacyError,
          after: h.legacyError,
        },
      )
    }
  }
}
