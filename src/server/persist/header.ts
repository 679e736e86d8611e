/**
 * The store header: `DIR/oec-store.json` says that DIR is an `oec` store, in which format
 * version, for which contract (the options signing domain), and names the store by a random id
 * that the database also holds (record `!store`). So a DIR that is not a store, a store of
 * another version or contract, and a `data.mdb` deleted, truncated or swapped for another
 * database are each refused before anything is served: a fresh empty database would answer a
 * replay of an old signed order ACKED.
 */
import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { InputError } from '../../errors.ts'
import { LOCK_FILE } from './lock.ts'

export const HEADER_FILE = 'oec-store.json'
export const DATA_FILE = 'data.mdb'
const MARKER = 'oec-store'
/**
 * The format this code writes. 2 added the finished-order queue (`f:`) and `!forgotten`, so that
 * finished orders past `--retain` leave the store; 3 stores a wallet's consumed nonces as runs
 * (one `n:` record a run, not a nonce). Versions 1 and 2 are migrated on open (`migrateFrom`),
 * any other version is refused.
 */
export const FORMAT_VERSION = 3
const MIGRATES_FROM: readonly number[] = [1, 2]

export interface StoreHeader {
  readonly marker: typeof MARKER
  readonly version: number
  /** The options signing domain, as `name/chainId`: a store's signatures belong to one contract. */
  readonly contract: string
  readonly id: string
  readonly createdAt: string
}

const recover = (dir: string) => `move ${dir} aside (or pick another --data directory) to start a new store`

/**
 * The header of the store in `dir`, checked against this server's contract; a new header when
 * `dir` is empty (`created`). Throws one line for anything else.
 */
export function openHeader(dir: string, contract: string): { header: StoreHeader; created: boolean; migrateFrom?: number } {
  const file = join(dir, HEADER_FILE)
  if (!existsSync(file)) {
    const others = readdirSync(dir).filter((f) => f !== LOCK_FILE)
    if (others.length > 0)
      throw new InputError(
        `--data ${dir}: not an oec store (no ${HEADER_FILE}, but it holds ${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''}); point --data at an empty or new directory`,
      )
    const header: StoreHeader = { marker: MARKER, version: FORMAT_VERSION, contract, id: randomUUID(), createdAt: new Date().toISOString() }
    writeHeader(file, header)
    return { header, created: true }
  }
  let header: Partial<StoreHeader>
  try {
    header = JSON.parse(readFileSync(file, 'utf8')) as Partial<StoreHeader>
  } catch {
    throw new InputError(`--data ${dir}: ${HEADER_FILE} is truncated or not JSON (damaged store); ${recover(dir)}`)
  }
  if (header === null || typeof header !== 'object' || header.marker !== MARKER || typeof header.id !== 'string')
    throw new InputError(`--data ${dir}: ${HEADER_FILE} is not an oec store header (foreign or damaged); ${recover(dir)}`)
  if (header.version !== FORMAT_VERSION && !MIGRATES_FROM.includes(header.version as number))
    throw new InputError(
      `--data ${dir}: store format version ${String(header.version)}, this oec reads version ${FORMAT_VERSION} and migrates only from ${MIGRATES_FROM.join(', ')}; use the oec that wrote it, or ${recover(dir)}`,
    )
  if (header.contract !== contract)
    throw new InputError(
      `--data ${dir}: the store belongs to the contract ${String(header.contract)}, this server signs for ${contract}; serve that contract, or ${recover(dir)}`,
    )
  if (!existsSync(join(dir, DATA_FILE)))
    throw new InputError(`--data ${dir}: ${DATA_FILE} is missing (deleted?): its orders and nonces are gone; ${recover(dir)}`)
  const migrateFrom = header.version === FORMAT_VERSION ? undefined : (header.version as number)
  return { header: header as StoreHeader, created: false, ...(migrateFrom === undefined ? {} : { migrateFrom }) }
}

/** Records that the store in `dir` is now of this format version (after its migration committed). */
export function markMigrated(dir: string, header: StoreHeader): void {
  writeHeader(join(dir, HEADER_FILE), { ...header, version: FORMAT_VERSION })
}

function writeHeader(file: string, header: StoreHeader): void {
  // Written whole or not at all: a crash never leaves half a header.
  writeFileSync(`${file}.tmp`, `${JSON.stringify(header, null, 2)}\n`)
  renameSync(`${file}.tmp`, file)
}
