/**
 * The damage check run before a store is served: a child process opens `data.mdb` read-only,
 * checks that it holds this store's `!store` record, and reads and decodes every record, checking
 * its shape and that each order has its wallet index and each index its order. A damaged LMDB
 * file can crash the reader natively (SIGBUS/SIGSEGV on a truncated map, an assertion abort on a
 * scribbled page), which no `try` catches: in the child, that crash becomes one line in the
 * parent, and the server never opens the file.
 *
 * Reading every record does not touch the pages only the free list names, so a file cut mid-way
 * through them used to pass and die under the first write: the child also checks that the file
 * reaches the last page LMDB has used.
 */
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { InputError } from '../../errors.ts'

// Plain CommonJS, run with `node -e`: the same text works from the sources and from dist/.
const CHILD = String.raw`
const [lmdbPath, dir, id] = process.argv.slice(1)
const say = (problem) => { process.stdout.write(JSON.stringify({ problem }) + '\n'); process.exit(3) }
let db
try {
  db = require(lmdbPath).open({ path: dir, noSubdir: false, readOnly: true, compression: false })
} catch (err) { say('LMDB cannot open it (' + String(err && err.message || err).split('\n')[0] + ')') }
const stats = db.getStats()
if (require('node:fs').statSync(require('node:path').join(dir, 'data.mdb')).size < (stats.lastPageNumber + 1) * stats.pageSize)
  say('data.mdb ends before the last page its database uses (truncated)')
const head = db.get('!store')
if (!head || head.id !== id) say('data.mdb does not hold this store (truncated, emptied or replaced by another database)')
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
const orders = new Map()
const indexed = new Set()
const opens = []
let n = 0
for (const { key, value } of db.getRange()) {
  n++
  if (typeof key !== 'string') say('a record with a key of the wrong type')
  const colon = key.indexOf(':')
  const kind = key.startsWith('!') ? key : key.slice(0, colon)
  const rest = key.slice(colon + 1)
  let ok
  switch (kind) {
    case '!store': ok = true; break
    case '!forgotten': case 'f': ok = Number.isSafeInteger(value) && value > 0; break
    case 'k': case 'ak': ok = value === 1; break
    // A run of consumed nonces (the run's end, as text), or a version-2 store's single nonce.
    case 'n': ok = value === 1 || (typeof value === 'string' && /^[0-9]{1,20}$/.test(value)); break
    case 'w': ok = value === 1; indexed.add(rest); break
    case 'open': ok = value === 1; opens.push(rest); break
    case 'o': ok = isObj(value) && typeof value.id === 'string' && typeof value.seq === 'number' && isObj(value.input)
      && typeof value.input.wallet === 'string' && typeof value.status === 'string' && typeof value.filled === 'string';
      if (ok) orders.set(rest, value.input.wallet.toLowerCase()); break
    case 'p': ok = typeof value === 'string'; break
    case 'ag': ok = isObj(value) && typeof value.owner === 'string' && typeof value.agent === 'string'; break
    case 'r': ok = Array.isArray(value) && value.length === 4 && value.every((x) => typeof x === 'number'); break
    default: ok = false
  }
  if (!ok) say('the record ' + JSON.stringify(key) + ' is not of its kind (damaged)')
}
for (const [seq, wallet] of orders) if (!indexed.has(wallet + ':' + seq)) say('order ' + Number(seq) + ' has no wallet index (a record was removed)')
const seqs = new Set(orders.keys())
for (const w of indexed) if (!seqs.has(w.slice(w.lastIndexOf(':') + 1))) say('the wallet index ' + w + ' names an order that is missing (a record was removed)')
for (const s of opens) if (!seqs.has(s)) say('the open order ' + Number(s) + ' is missing (a record was removed)')
process.stdout.write(JSON.stringify({ records: n }) + '\n')
`

/** Throws one line naming the damage and the way out when the store in `dir` cannot be served. */
export function verifyStore(dir: string, storeId: string): { records: number } {
  const lmdb = createRequire(import.meta.url).resolve('lmdb')
  const run = spawnSync(process.execPath, ['-e', CHILD, lmdb, dir, storeId], { encoding: 'utf8', timeout: 120_000 })
  const recover = `move ${dir} aside (or pick another --data directory) to start a new store`
  const line = run.stdout?.trim().split('\n').pop() ?? ''
  let said: { problem?: string; records?: number } = {}
  try {
    said = JSON.parse(line) as typeof said
  } catch {
    // A crash prints no line: the signal or exit code says it.
  }
  if (run.status === 0 && typeof said.records === 'number') return { records: said.records }
  if (said.problem) throw new InputError(`--data ${dir}: damaged store: ${said.problem}; ${recover}`)
  const how = run.error ? run.error.message : run.signal ? `crashed with ${run.signal}` : `failed (exit ${run.status})`
  throw new InputError(`--data ${dir}: damaged store: reading data.mdb ${how}; ${recover}`)
}
