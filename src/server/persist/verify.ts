/**
 * The damage check run before a store is served: a child process opens `data.mdb` read-only,
 * checks that it holds this store's `!store` record, and reads and decodes every record, checking
 * its shape and that each order has its wallet index and each index its order. A damaged LMDB
 * file can crash the reader natively (SIGBUS/SIGSEGV on a truncated map, an assertion abort on a
 * scribbled page), which no `try` catches: in the child, that crash becomes one line in the
 * parent, and the server never opens the file.
 *
 * Reading every record does not touch the pages only the free list names, nor the free list's
 * own pages, so a file cut or scribbled there used to pass and then fail or crash under the first
 * write. The child also checks that the file reaches the last page LMDB has used, and then does
 * the first writes on a copy of the file in a temporary directory (the user's file is never
 * written by the check): their commits read the free list and write it back.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { InputError } from '../../errors.ts'

// Plain CommonJS, run with `node -e`: the same text works from the sources and from dist/.
const CHILD = String.raw`
const [lmdbPath, dir, id, trial] = process.argv.slice(1)
const lmdb = require(lmdbPath)
const fileSize = require('node:fs').statSync(require('node:path').join(dir, 'data.mdb')).size
const say = (problem) => { process.stdout.write(JSON.stringify({ problem }) + '\n'); process.exit(3) }
let db
try {
  db = lmdb.open({ path: dir, noSubdir: false, readOnly: true, compression: false })
} catch (err) { say('LMDB cannot open it (' + String(err && err.message || err).split('\n')[0] + ')') }
const stats = db.getStats()
if (fileSize < (stats.lastPageNumber + 1) * stats.pageSize)
  say('data.mdb ends before the last page its database uses (truncated)')
const head = db.get('!store')
if (!head || head.id !== id) say('data.mdb does not hold this store (truncated, emptied or replaced by another database)')
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
const orders = new Map()
const indexed = new Set()
const opens = []
let n = 0
// What every record holds, to compare with the copy after the trial writes.
const digest = (d) => { const h = require('node:crypto').createHash('sha256'); for (const key of d.getKeys()) if (!String(key).startsWith('!trial')) { h.update(String(key) + '\0'); h.update(d.getBinary(key)) } return h.digest('hex') }
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
const before = digest(db)
// The first writes run on a copy: a commit reads the free list and writes it back, and that is
// where a damaged one fails or crashes; the user's file is never written by the check.
process.stdout.write(JSON.stringify({ phase: 'write' }) + '\n')
const fs = require('node:fs')
try { fs.copyFileSync(require('node:path').join(dir, 'data.mdb'), require('node:path').join(trial, 'data.mdb')) } catch (err) {
  process.stdout.write(JSON.stringify({ records: n, skipped: String(err && err.message || err).split('\n')[0] }) + '\n')
  process.exit(0)
}
const w = lmdb.open({ path: trial, noSubdir: false, compression: false, mapSize: 4 * fileSize + (1 << 24) })
try {
  // A small write reclaims the free list's first record; one larger than the whole file makes
  // LMDB read every record looking for that many pages in a row; each commit writes it back.
  w.putSync('!trial', 1)
  w.putSync('!trial', Buffer.alloc(fileSize + stats.pageSize))
  w.removeSync('!trial')
  // Then values of half a page, as many pages as the file has, in two commits (the last commit's
  // own record is reclaimed only by the next): every page the free list names is written over.
  // A free list that names a page in use (a scribbled record) shows as records that changed.
  const half = Buffer.alloc(stats.pageSize >> 1, 0xa5)
  for (const round of [0, 1]) w.transactionSync(() => { for (let i = 0; i <= 2 * stats.lastPageNumber; i++) w.putSync('!trial:' + round + ':' + i, half) })
} catch (err) { say('LMDB cannot write to it: its free list is damaged (' + String(err && err.message || err).split('\n')[0] + ')') }
if (digest(w) !== before) say('its free list names pages in use (damaged): a trial write changed records')
process.stdout.write(JSON.stringify({ records: n }) + '\n')
process.exit(0)
`

/** Throws one line naming the damage and the way out when the store in `dir` cannot be served. */
export function verifyStore(dir: string, storeId: string): { records: number } {
  const lmdb = createRequire(import.meta.url).resolve('lmdb')
  const trial = mkdtempSync(join(tmpdir(), 'oec-store-check-'))
  let run: SpawnSyncReturns<string>
  try {
    run = spawnSync(process.execPath, ['-e', CHILD, lmdb, dir, storeId, trial], { encoding: 'utf8', timeout: 120_000 })
  } finally {
    rmSync(trial, { recursive: true, force: true })
  }
  const recover = `move ${dir} aside (or pick another --data directory) to start a new store`
  const line = run.stdout?.trim().split('\n').pop() ?? ''
  let said: { problem?: string; records?: number; phase?: string; skipped?: string } = {}
  try {
    said = JSON.parse(line) as typeof said
  } catch {
    // A crash prints no line: the signal or exit code says it.
  }
  if (run.status === 0 && typeof said.records === 'number') {
    if (said.skipped)
      process.stderr.write(
        `oec serve: note: the damage check did not try a write (no room for a copy of data.mdb in ${tmpdir()}: ${said.skipped})\n`,
      )
    return { records: said.records }
  }
  if (said.problem) throw new InputError(`--data ${dir}: damaged store: ${said.problem}; ${recover}`)
  const how = run.error ? run.error.message : run.signal ? `crashed with ${run.signal}` : `failed (exit ${run.status})`
  const what = said.phase === 'write' ? 'a trial write to data.mdb (its free list)' : 'reading data.mdb'
  throw new InputError(`--data ${dir}: damaged store: ${what} ${how}; ${recover}`)
}
