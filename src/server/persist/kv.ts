/**
 * The key-value face of the data directory: LMDB through `lmdb`, with its writes queued and
 * committed in batches (one transaction for all the writes of an event-loop turn), and reads that
 * see the writes not yet committed. The order path stays one synchronous turn (reads are
 * synchronous from LMDB's memory map), and a reply waits for `settled()` before it is sent, so
 * nothing is answered before it is on disk.
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

/** A queued write: the value, or undefined for a removal. */
interface Pending {
  readonly value: unknown
}

export class Kv {
  private readonly db: RootDatabase<unknown, string>
  private readonly pending = new Map<string, Pending>()
  private failure: Error | undefined
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

  async close(): Promise<void> {
    await this.db[this.durable]
    await this.db.close()
  }

  private queue(key: string, entry: Pending, done: Promise<boolean>): void {
    this.pending.set(key, entry)
    // A write leaves the queue once durable, so that settled() also holds back an answer that
    // only reads it (a replay refused by a nonce not yet flushed).
    const durable = this.durable === 'flushed' ? done.then(() => this.db.flushed) : done
    durable.then(
      () => {
        // A later write of the same key stays queued until its own commit.
        if (this.pending.get(key) === entry) this.pending.delete(key)
      },
      (err: unknown) => {
        this.failure ??= err instanceof Error ? err : new Error(String(err))
      },
    )
  }
}
