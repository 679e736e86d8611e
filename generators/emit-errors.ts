/**
 * errors.ts: the error-code catalog (`x-<service>-error-codes`) as `const` objects, the
 * `ErrorCode` union that keeps autocompletion yet admits future codes, type guards, the JSON-RPC
 * codes, the HTTP status and `retryable` of each code, and the codes each operation declares.
 */
import type { CodeBlockWriter, WriterFunction } from 'ts-morph'
import type { Contract } from '../src/contract/load.ts'
import { getPointer, isObject, responseErrorCodes, type ErrorCodeEntry } from '../src/contract/model.ts'
import { propertyName, writeValue, type NameRegistry } from './names.ts'
import { specError, type SchemaContext } from './schema.ts'
import { constStatement, functionStatement, lit, typeAliasStatement, union, writeDoc, type Doc } from './type-expr.ts'

function entryValue(e: ErrorCodeEntry): Record<string, unknown> {
  return {
    code: e.code,
    surface: e.surface,
    httpStatus: e.httpStatus,
    ...(e.message !== undefined ? { message: e.message } : {}),
    description: e.description,
    retryable: e.retryable,
    since: e.since,
    deprecated: e.deprecated,
    legacyError: e.legacyError,
    ...(e.reserved ? { reserved: true } : {}),
    assumed: e.assumed,
  }
}

function entryDoc(e: ErrorCodeEntry, spec: Contract<'catalog'>): Doc {
  const raw = getPointer(spec.doc, `/${spec.catalogKey}/${e.index}`)
  const why = isObject(raw) && typeof raw['x-assumed-why'] === 'string' ? raw['x-assumed-why'] : undefined
  return {
    description: `${e.description}${e.httpStatus.length ? ` (HTTP ${e.httpStatus.join(', ')})` : ''}`,
    ...(e.deprecated ? { deprecated: true } : {}),
    ...(e.assumed && why ? { assumed: why } : {}),
  }
}

/** `{ key: value, ... } as const` with a JSDoc comment on each key. */
function catalogObject(entries: readonly ErrorCodeEntry[], spec: Contract<'catalog'>): WriterFunction {
  return (w: CodeBlockWriter) => {
    if (entries.length === 0) {
      w.write('{}')
      return
    }
    w.write('{').newLine()
    w.indent(() => {
      for (const e of entries) {
        writeDoc(w, entryDoc(e, spec))
        w.write(`${propertyName(e.code)}: `)
        writeValue(w, entryValue(e))
        w.write(',').newLine()
      }
    })
    w.write('}')
  }
}

const asConst =
  (inner: WriterFunction): WriterFunction =>
  (w) => {
    inner(w)
    w.write(' as const')
  }

export function emitErrors(spec: Contract<'catalog'>, names: NameRegistry): WriterFunction[] {
  const ctx: SchemaContext = { doc: spec.doc, file: spec.file, lineOf: (p) => spec.lineOf(p), refName: () => undefined }
  const seen = new Map<string, number>()
  for (const e of spec.catalog) {
    const k = `${e.surface}:${e.code}`
    if (seen.has(k))
      throw specError(ctx, `/${spec.catalogKey}/${e.index}/code`, `duplicate error code ${JSON.stringify(e.code)} in ${spec.catalogKey}`)
    seen.set(k, e.index)
  }
  const http = spec.catalog.filter((e) => e.surface === 'http')
  const rpc = spec.catalog.filter((e) => e.surface === 'jsonrpc')
  const n = {
    catalog: names.claim('errorCatalog'),
    known: names.claim('KnownErrorCode'),
    code: names.claimAs('errorCode', 'ErrorCode'),
    list: names.claim('knownErrorCodes'),
    guard: names.claim('isKnownErrorCode'),
    status: names.claim('httpStatusOf'),
    retryable: names.claim('isRetryableErrorCode'),
    rpcCatalog: names.claim('jsonRpcErrorCatalog'),
    rpcKnown: names.claim('KnownJsonRpcErrorCode'),
    rpcCode: names.claim('JsonRpcErrorCode'),
    rpcGuard: names.claim('isKnownJsonRpcErrorCode'),
    opCodes: names.claim('operationErrorCodes'),
    global: names.claim('globalErrorCodes'),
  }
  const constant = (name: string, init: WriterFunction, doc: Doc): WriterFunction => constStatement(name, init, doc)

  // Per operation and status: the codes its responses declare (x-error-codes, x-jsonrpc-error-codes).
  const perOp: Record<string, Record<string, (string | number)[]>> = {}
  for (const op of spec.operations) {
    for (const [status, response] of Object.entries(op.responses)) {
      const codes = responseErrorCodes(response)
      if (codes.length > 0) (perOp[op.operationId] ??= {})[status] = codes
    }
  }
  const globalRaw = getPointer(spec.doc, '/x-global-error-codes/codes')
  const global = Array.isArray(globalRaw) ? globalRaw.map(String) : []

  const out: WriterFunction[] = [
    constant(n.catalog, asConst(catalogObject(http, spec)), {
      description: `The public HTTP error codes (\`${spec.catalogKey}\`). Branch on \`code\`; \`message\` is for people.`,
    }),
    typeAliasStatement(n.known, union(http.map((e) => lit(String(e.code)))), {
      description: 'An error code this version of the spec lists.',
    }),
    // `string & {}` keeps the literal members from collapsing into plain `string`, so editors
    // still offer the known codes.
    typeAliasStatement(n.code, `${n.known} | (string & {})`, {
      description:
        'Any HTTP error `code`: the known ones autocomplete, and a code a later server adds still type-checks, as the contract asks clients to tolerate unknown future codes. Narrow with `' +
        n.guard +
        '`.',
    }),
    constant(
      n.list,
      (w) => {
        writeValue(
          w,
          http.map((e) => e.code),
        )
        w.write(` as const satisfies readonly ${n.known}[]`)
      },
      { description: 'The known codes, in catalog order.' },
    ),
    functionStatement(
      n.guard,
      [{ name: 'code', type: 'unknown' }],
      `code is ${n.known}`,
      (w) => {
        w.write(`return typeof code === 'string' && Object.prototype.hasOwnProperty.call(${n.catalog}, code);`)
      },
      { description: 'True when `code` is listed in the catalog (an unknown future code gives false).' },
    ),
    functionStatement(
      n.status,
      [{ name: 'code', type: n.code }],
      'readonly number[] | undefined',
      (w) => {
        w.write(http.length === 0 ? 'return undefined;' : `return ${n.guard}(code) ? ${n.catalog}[code].httpStatus : undefined;`)
      },
      { description: 'The HTTP statuses the catalog gives a code, or undefined for a code it does not list.' },
    ),
    functionStatement(
      n.retryable,
      [{ name: 'code', type: n.code }],
      'boolean',
      (w) => {
        w.write(http.length === 0 ? 'return false;' : `return ${n.guard}(code) ? ${n.catalog}[code].retryable : false;`)
      },
      { description: 'Whether the catalog marks a code retryable; false for a code it does not list (decide on the HTTP status then).' },
    ),
    constant(n.rpcCatalog, asConst(catalogObject(rpc, spec)), {
      description: 'JSON-RPC-style `error.code` values (numeric) of the envelope endpoints. Clients branch on the number.',
    }),
    typeAliasStatement(n.rpcKnown, union(rpc.map((e) => lit(Number(e.code)))), {
      description: 'A JSON-RPC error code this version of the spec lists.',
    }),
    typeAliasStatement(n.rpcCode, `${n.rpcKnown} | (number & {})`, {
      description: 'Any JSON-RPC error code: known ones autocomplete, unknown numbers still type-check.',
    }),
    functionStatement(
      n.rpcGuard,
      [{ name: 'code', type: 'unknown' }],
      `code is ${n.rpcKnown}`,
      (w) => {
        w.write(`return typeof code === 'number' && Object.prototype.hasOwnProperty.call(${n.rpcCatalog}, code);`)
      },
      { description: 'True when `code` is a JSON-RPC error code the catalog lists.' },
    ),
    constant(
      n.opCodes,
      asConst((w) => writeValue(w, perOp)),
      {
        description: 'The error codes each operation declares, by operationId and HTTP status.',
      },
    ),
    constant(
      n.global,
      (w) => {
        writeValue(w, global)
        w.write(' as const')
      },
      { description: 'Codes any path may return outside its declared operations.' },
    ),
  ]
  return out
}
