/**
 * One owner per data directory: `DIR/oec.lock`, created exclusively and holding the owner's pid.
 * Two servers on one LMDB file would both start (LMDB's own lock lets readers and one writer at a
 * time share it) and accept the same signed order twice, so a second one is refused.
 *
 * The lock is released on any exit the process sees (close, `exit`); after a `kill -9` the file
 * stays, and a lock whose pid is no longer alive is stale and taken over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { InputError } from '../../errors.ts'

export const LOCK_FILE = 'oec.lock'

export interface DirLock {
  release(): void
}

/** Alive, or alive under another user (EPERM): only ESRCH says the process is gone. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function holder(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim())
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

/** Takes the lock on `dir` for this process, or throws the one line naming the holder. */
export function lockDir(dir: string): DirLock {
  const file = join(dir, LOCK_FILE)
  // Two tries: the second after removing a stale lock (a racing starter may win it instead).
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number
    try {
      fd = openSync(file, 'wx')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const pid = holder(file)
      // An unreadable or empty lock is a starter between create and write: treat it as held.
      if (pid === undefined || (pid !== process.pid && alive(pid)) || attempt > 0)
        throw new InputError(
          `--data ${dir}: in use by another oec serve (pid ${pid ?? 'unknown'}, ${file}); stop it or pick another directory`,
        )
      if (pid === process.pid) throw new InputError(`--data ${dir}: already open in this process; close the other server first`)
      unlinkSync(file)
      continue
    }
    writeSync(fd, `${process.pid}\n`)
    closeSync(fd)
    let held = true
    const release = () => {
      if (!held) return
      held = false
      process.off('exit', release)
      // Only our own lock: a later owner's file is not ours to remove.
      if (holder(file) === process.pid) unlinkSync(file)
    }
    process.on('exit', release)
    return { release }
  }
  throw new InputError(`--data ${dir}: cannot take the lock ${file}`)
}
