/**
 * The key-value face of the data directory: LMDB through `lmdb`, with its writes queued and
 * committed in batches (one transaction for all the writes of an event-loop turn), and reads that
 * see the writes not yet committed. The order path stays one synchronous turn (reads are
 * synchronous from LMDB's memory map), and a reply waits for `settled()` before it is sent, so
 * nothing is answered before it is on disk.
 */
import { open, type RootDatabase } from 'lmdb'

export interface KvOptions {
  /** fsync every commit: survives power loss too, at several ms a commit. Off: a commit is safe once the process has handed it to the OS (kill -9 loses nothing committed). */
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

  constructor(path: string, options: KvOptions = {}) {
    this.db = open<unknown, string>({ path, noSync: options.sync !== true, compression: false })
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
    return this.db.committed.then(() => {
      if (this.failure) throw this.failure
    })
  }

  async close(): Promise<void> {
    await this.db.committed
    await this.db.close()
  }

  private queue(key: string, entry: Pending, done: Promise<boolean>): void {
    this.pending.set(key, entry)
    done.then(
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
