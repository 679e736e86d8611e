/**
 * The error-code catalog diff, finding by finding: exact ids, pointers, messages and values, and
 * the matching rules (by surface and code, renumbering only when one candidate carries the label).
 */
import { describe, expect, it } from 'vitest'
import { diffSpecs, type DiffSpec } from '../../src/diff/index.ts'
import { base, codeIndex, edited, type Doc } from './helpers.ts'

const CATALOG_RULES = new Set([
  'error-code-removed',
  'error-code-added',
  'error-code-status-changed',
  'error-code-deprecated',
  'error-code-attribute-changed',
  'jsonrpc-error-code-changed',
  'jsonrpc-error-code-removed',
  'error-code-legacy-error-changed',
])
const codes = (d: Doc) => d['x-service-error-codes'] as Record<string, any>[]
const entry = (d: Doc, code: string | number) => codes(d)[codeIndex(d, code)]!
const JSONRPC = { surface: 'jsonrpc', http_status: [200], retryable: false, since: '1.0.0', deprecated: false, legacy_error: null }

/** The catalog findings of base → head, without severity (the rule fixtures check it). */
function catalogFindings(b: DiffSpec, h: DiffSpec) {
  return diffSpecs(b, h, { today: '2026-11-21' })
    .filter((f) => CATALOG_RULES.has(f.id))
    .map(({ severity: _s, ...f }) => f)
}
const diffOf = (edit: (d: Doc) => void, baseEdit?: (d: Doc) => void) => {
  const b = baseEdit ? edited(baseEdit) : base()
  return catalogFindings(
    b,
    edited((d) => {
      baseEdit?.(d)
      edit(d)
    }),
  )
}

describe('error-code catalog diff', () => {
  it('reordering the catalog is no change', () => {
    expect(diffOf((d) => codes(d).reverse())).toEqual([])
  })

  it('an HTTP code removed; a JSON-RPC code removed', () => {
    const i = codeIndex(base().doc as Doc, 'nonce_reused')
    expect(diffOf((d) => codes(d).splice(codeIndex(d, 'nonce_reused'), 1))).toEqual([
      {
        id: 'error-code-removed',
        pointer: `/x-service-error-codes/${i}`,
        message: 'The error code nonce_reused was removed from x-service-error-codes; clients that branch on it never see it again.',
        before: 'nonce_reused',
      },
    ])
    const j = codeIndex(base().doc as Doc, 13020)
    expect(diffOf((d) => codes(d).splice(codeIndex(d, 13020), 1))).toEqual([
      {
        id: 'jsonrpc-error-code-removed',
        pointer: `/x-service-error-codes/${j}`,
        message: 'The JSON-RPC error code 13020 was removed from x-service-error-codes; clients branch on the number.',
        before: 13020,
      },
    ])
  })

  it('a code added, at its index in head', () => {
    const n = codes(base().doc as Doc).length
    expect(diffOf((d) => codes(d).push({ ...entry(d, 'invalid_json'), code: 'order_expired' }))).toEqual([
      {
        id: 'error-code-added',
        pointer: `/x-service-error-codes/${n}`,
        message: 'The error code order_expired was added to x-service-error-codes.',
        after: 'order_expired',
      },
    ])
  })

  it('a JSON-RPC code renumbered: one finding at the new entry, matched by message or else by description', () => {
    const j = codeIndex(base().doc as Doc, 13020)
    expect(diffOf((d) => (entry(d, 13020).code = 13021))).toEqual([
      {
        id: 'jsonrpc-error-code-changed',
        pointer: `/x-service-error-codes/${j}/code`,
        message: 'The JSON-RPC error code 13020 (not_found) is now 13021; clients branch on the number.',
        before: 13020,
        after: 13021,
      },
    ])
    // No message on either side: the description is the label.
    const noMessage = (d: Doc) => delete entry(d, 13020).message
    expect(diffOf((d) => (entry(d, 13020).code = 13022), noMessage)).toEqual([
      {
        id: 'jsonrpc-error-code-changed',
        pointer: `/x-service-error-codes/${j}/code`,
        message: 'The JSON-RPC error code 13020 (GET /orderbook for a missing instrument.) is now 13022; clients branch on the number.',
        before: 13020,
        after: 13022,
      },
    ])
  })

  it('renumbering needs the same label, the JSON-RPC surface on both sides, and exactly one candidate', () => {
    const j = codeIndex(base().doc as Doc, 13020)
    const n = codes(base().doc as Doc).length
    const ids = (fs: { id: string }[]) => fs.map((f) => f.id).sort()
    // Another label: a removal and an addition.
    expect(ids(diffOf((d) => Object.assign(entry(d, 13020), { code: 13021, message: 'gone' })))).toEqual([
      'error-code-added',
      'jsonrpc-error-code-removed',
    ])
    // Two new codes with the label: ambiguous, so a removal and two additions.
    expect(
      ids(
        diffOf((d) => {
          entry(d, 13020).code = 13021
          codes(d).push({ ...JSONRPC, code: 13023, message: 'not_found', description: 'x' })
        }),
      ),
    ).toEqual(['error-code-added', 'error-code-added', 'jsonrpc-error-code-removed'])
    // The same label on the HTTP surface is not a renumbering.
    expect(
      diffOf((d) => {
        codes(d).splice(codeIndex(d, 13020), 1)
        codes(d).push({ ...JSONRPC, surface: 'http', http_status: [404], code: 'not_found_http', message: 'not_found', description: 'x' })
      }).map((f) => [f.id, f.pointer]),
    ).toEqual([
      ['jsonrpc-error-code-removed', `/x-service-error-codes/${j}`],
      ['error-code-added', `/x-service-error-codes/${n - 1}`],
    ])
    // An HTTP code removed while a JSON-RPC code with its label appears: no renumbering either.
    const httpLabel = (d: Doc) => codes(d).push({ ...JSONRPC, surface: 'http', http_status: [409], code: 'gone_http', message: 'gone' })
    expect(
      diffOf((d) => {
        codes(d).splice(codeIndex(d, 'gone_http'), 1)
        codes(d).push({ ...JSONRPC, code: 13099, message: 'gone', description: 'x' })
      }, httpLabel)
        .map((f) => f.id)
        .sort(),
    ).toEqual(['error-code-added', 'error-code-removed'])
    // Two removed codes share a label and one new code carries it: the first takes it, the second is removed.
    const twin = (d: Doc) => codes(d).push({ ...JSONRPC, code: 13024, message: 'not_found', description: 'y' })
    expect(
      diffOf((d) => {
        codes(d).splice(codeIndex(d, 13024), 1)
        entry(d, 13020).code = 13021
      }, twin).map((f) => [f.id, f.before, f.after]),
    ).toEqual([
      ['jsonrpc-error-code-changed', 13020, 13021],
      ['jsonrpc-error-code-removed', 13024, undefined],
    ])
  })

  it('HTTP statuses compare as sets; an empty list reads "none"', () => {
    const k = codeIndex(base().doc as Doc, 'limit_exceeded')
    expect(
      diffOf(
        (d) => (entry(d, 'limit_exceeded').http_status = [422, 400]),
        (d) => (entry(d, 'limit_exceeded').http_status = [400, 422]),
      ),
    ).toEqual([])
    expect(diffOf((d) => (entry(d, 'limit_exceeded').http_status = [400, 422]))).toEqual([
      {
        id: 'error-code-status-changed',
        pointer: `/x-service-error-codes/${k}/http_status`,
        message: 'The error code limit_exceeded now comes with HTTP 400/422 instead of 422.',
        before: [422],
        after: [400, 422],
      },
    ])
    expect(diffOf((d) => (entry(d, 'limit_exceeded').http_status = [])).map((f) => f.message)).toEqual([
      'The error code limit_exceeded now comes with HTTP none instead of 422.',
    ])
    expect(
      diffOf(
        (d) => (entry(d, 'limit_exceeded').http_status = [422]),
        (d) => (entry(d, 'limit_exceeded').http_status = []),
      ).map((f) => f.message),
    ).toEqual(['The error code limit_exceeded now comes with HTTP 422 instead of none.'])
    expect(
      diffOf(
        (d) => (entry(d, 'limit_exceeded').http_status = [400, 422]),
        (d) => (entry(d, 'limit_exceeded').http_status = [422, 400]),
      ),
    ).toEqual([])
    // Same length, other members.
    expect(
      diffOf(
        (d) => (entry(d, 'limit_exceeded').http_status = [400, 409]),
        (d) => (entry(d, 'limit_exceeded').http_status = [400, 422]),
      ).map((f) => f.id),
    ).toEqual(['error-code-status-changed'])
  })

  it('deprecation is reported when it starts, not when it is lifted', () => {
    const k = codeIndex(base().doc as Doc, 'invalid_json')
    expect(diffOf((d) => (entry(d, 'invalid_json').deprecated = true))).toEqual([
      {
        id: 'error-code-deprecated',
        pointer: `/x-service-error-codes/${k}/deprecated`,
        message: 'The error code invalid_json is now deprecated.',
      },
    ])
    expect(
      diffOf(
        (d) => (entry(d, 'invalid_json').deprecated = false),
        (d) => (entry(d, 'invalid_json').deprecated = true),
      ),
    ).toEqual([])
    expect(
      diffOf(
        (d) => (entry(d, 'invalid_json').deprecated = true),
        (d) => (entry(d, 'invalid_json').deprecated = true),
      ),
    ).toEqual([])
  })

  it('retryable, the fixed message and the legacy error value, each with before and after', () => {
    const k = codeIndex(base().doc as Doc, 'internal_error')
    expect(diffOf((d) => (entry(d, 'internal_error').retryable = false))).toEqual([
      {
        id: 'error-code-attribute-changed',
        pointer: `/x-service-error-codes/${k}/retryable`,
        message: 'The error code internal_error changed retryable from true to false.',
        before: true,
        after: false,
      },
    ])
    const s = codeIndex(base().doc as Doc, 'signature_verification_failed')
    expect(diffOf((d) => (entry(d, 'signature_verification_failed').message = 'Bad signature'))).toEqual([
      {
        id: 'error-code-attribute-changed',
        pointer: `/x-service-error-codes/${s}/message`,
        message:
          'The error code signature_verification_failed changed its fixed message from "Signature verification failed" to "Bad signature".',
        before: 'Signature verification failed',
        after: 'Bad signature',
      },
    ])
    expect(diffOf((d) => delete entry(d, 'signature_verification_failed').message)).toEqual([
      {
        id: 'error-code-attribute-changed',
        pointer: `/x-service-error-codes/${s}/message`,
        message: 'The error code signature_verification_failed changed its fixed message from "Signature verification failed" to null.',
        before: 'Signature verification failed',
        after: null,
      },
    ])
    // No message before and none after (absent vs null) is no change.
    expect(diffOf((d) => (entry(d, 'invalid_json').message = null))).toEqual([])
    const r = codeIndex(base().doc as Doc, 'rate_limit_exceeded')
    expect(diffOf((d) => (entry(d, 'rate_limit_exceeded').legacy_error = 'too_many_requests'))).toEqual([
      {
        id: 'error-code-legacy-error-changed',
        pointer: `/x-service-error-codes/${r}/legacy_error`,
        message: 'The legacy error value of rate_limit_exceeded changed from "rate_limit_exceeded" to "too_many_requests".',
        before: 'rate_limit_exceeded',
        after: 'too_many_requests',
      },
    ])
  })
})
