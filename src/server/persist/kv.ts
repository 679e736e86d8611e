/**
 * The key-value face of the data directory: LMDB through `lmdb`, with its writes queued and
 * committed in batches (one transaction for all the writes of an event-loop turn), and reads that
 * see the writes not yet committed. The order path stays one synchronous turn (reads are
 * synchronous from LMDB's memory map), and a reply waits for `settled()` before it is sent, so
 * nothing is answered before it is on disk.
 *
 * A commit that fails (a full disk: ENOSPC) does not lose its writes: they stay queued, readable,
 * and are written again every RETRY_MS until a commit succeeds; meanwhile `unavailable()` says
 * why, so that writes are refused (503) and reads go on, and the server recovers without a
 * restart once space returns.
 */
import { open, type RootDatabase } from 'lmdb'

export interface KvOptions {
  /**
   * fsync every commit, and answer only once it is flushed: survives power loss too, at several
   * ms a commit. Off: a commit is safe once the process has handed it to the OS (kill -9 loses
   * nothing committed).
   */
  sync?: boolean
}

const RETRY_MS = 500

/** A queued write: the value, or undefined for a removal. */
interface Pending {
  readonly value: unknown
}

export class Kv {
  private readonly db: RootDatabase<unknown, string>
  private readonly pending = new Map<string, Pending>()
  private failure: Error | undefined
  private retry: NodeJS.Timeout | undefined
  /**
   * What settled() waits for. With sync, lmdb's default overlappingSync commits first and
   * fsyncs after (off the write lock): `committed` resolves before the data is durable, so an
   * answer waits for `flushed`.
   */
  private readonly durable: 'committed' | 'flushed'

  constructor(path: string, options: KvOptions = {}) {
    // noSubdir false: lmdb takes a path with a dot ("state.db") for a file unless told.
    this.db = open<unknown, string>({ path, noSubdir: false, noSync: options.sync !== true, compression: false })
    this.durable = options.sync === true ? 'flushed' : 'committed'
    // lmdb rejects promises of its own on a failed commit that no caller can reach; those are
    // this store's failure (handled by the retry), anything else still ends the process.
    process.on('unhandledRejection', this.onUnhandled)
  }

  private readonly onUnhandled = (reason: unknown): void => {
    if (reason instanceof Error && (/^Commit failed/.test(reason.message) || (reason as { code?: unknown }).code === 28)) {
      this.failed(reason)
      return
    }
    throw reason
  }

  get(key: string): unknown {
    const p = this.pending.get(key)
    return p ? p.value : this.db.get(key)
  }

  has(key: string): boolean {
    return this.get(key) !== undefined
  }

  put(key: string, value: unknown): void {
    this.queue(key, { value }, this.db.put(key, value))
  }

  remove(key: string): void {
    this.queue(key, { value: undefined }, this.db.remove(key))
  }

  /** Entries whose key starts with `prefix`, in key order, queued writes included. */
  range(prefix: string): [string, unknown][] {
    const out = new Map<string, unknown>()
    for (const { key, value } of this.db.getRange({ start: prefix, end: `${prefix}\uffff` })) out.set(key, value)
    let queued = false
    for (const [key, p] of this.pending) {
      if (!key.startsWith(prefix)) continue
      queued = true
      if (p.value === undefined) out.delete(key)
      else out.set(key, p.value)
    }
    const entries = [...out]
    return queued ? entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) : entries
  }

  /** The first key starting with `prefix`, committed or queued (a queued removal hides a committed key). */
  firstKey(prefix: string): string | undefined {
    let first: string | undefined
    for (const key of this.db.getKeys({ start: prefix, end: `${prefix}\uffff` })) {
      if (this.pending.get(key)?.value === undefined && this.pending.has(key)) continue
      first = key
      break
    }
    for (const [key, p] of this.pending)
      if (p.value !== undefined && key.startsWith(prefix) && (first === undefined || key < first)) first = key
    return first
  }

  /** The last key starting with `prefix`, committed or queued. */
  lastKey(prefix: string): string | undefined {
    let last: string | undefined
    for (const key of this.db.getKeys({ start: `${prefix}\uffff`, end: prefix, reverse: true, limit: 1 })) last = key
    for (const [key, p] of this.pending)
      if (p.value !== undefined && key.startsWith(prefix) && (last === undefined || key > last)) last = key
    return last
  }

  /** Undefined when every write is committed; else a promise that settles when all writes so far are (and rejects if a commit failed). */
  settled(): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure)
    if (this.pending.size === 0) return undefined
    return this.db[this.durable].then(() => {
      if (this.failure) throw this.failure
    })
  }

  /** Why writes cannot be committed now (a failed commit being retried), else undefined. */
  unavailable(): string | undefined {
    return this.failure ? this.failure.message.split('\n')[0] : undefined
  }

  async close(): Promise<void> {
    clearInterval(this.retry)
    process.off('unhandledRejection', this.onUnhandled)
    await this.db[this.durable].then(undefined, () => {})
    await this.db.close()
  }

  private failed(err: unknown): void {
    // lmdb rejects with "Commit failed" and the cause (ENOSPC) in a promise of its own.
    const cause = (err as { commitError?: Promise<unknown> } | undefined)?.commitError
    if (cause && typeof cause.then === 'function')
      cause.then(
        () => {},
        (why: unknown) => {
          if (this.failure === err && why instanceof Error) this.failure = why
        },
      )
    this.failure ??= err instanceof Error ? err : new Error(String(err))
    this.retry ??= setInterval(() => this.rewrite(), RETRY_MS)
    this.retry.unref()
  }

  /** Writes every queued entry again; the failure ends when they are committed. */
  private rewrite(): void {
    const failure = this.failure
    if (!failure) return
    const entries = [...this.pending]
    const all: Promise<boolean>[] = []
    for (const [key, entry] of entries) {
      const done = entry.value === undefined ? this.db.remove(key) : this.db.put(key, entry.value)
      all.push(done)
      this.settle(key, entry, done)
    }
    Promise.all(all).then(
      () => {
        if (this.failure !== failure) return
        this.failure = undefined
        clearInterval(this.retry)
        this.retry = undefined
      },
      () => {},
    )
  }

  private queue(key: string, entry: Pending, done: Promise<boolean>): void {
    this.pending.set(key, entry)
    this.settle(key, entry, done)
  }

  private settle(key: string, entry: Pending, done: Promise<boolean>): void {
    // A failed commit also rejects the batch's shared promises; the failure is handled here, so
    // theirs must not end the process as unhandled.
    this.db.committed.then(undefined, () => {})
    this.db.flushed.then(undefined, () => {})
    // A write leaves the queue once durable, so that settled() also holds back an answer that
    // only reads it (a replay refused by a nonce not yet flushed).
    const durable = this.durable === 'flushed' ? done.then(() => this.db.flushed) : done
    durable.then(
      () => {
        // A later write of the same key stays queued until its own commit.
        if (this.pending.get(key) === entry) this.pending.delete(key)
      },
      (err: unknown) => this.failed(err),
    )
  }
}
