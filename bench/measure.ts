/** Figures every bench computes the same way. */
import { readFileSync } from 'node:fs'

/** The median: the middle sample of an odd count, the mean of the two middle ones of an even count. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

/** user + system CPU time of another process in µs, from /proc/<pid>/stat (Linux; NaN elsewhere). */
export function processCpuMicros(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name; utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(f[11]) + Number(f[12])) * 1e6) / 100
  } catch {
    return Number.NaN
  }
}
