/**
 * A progress line on stderr for a run whose report goes elsewhere (`--out FILE`, or a json,
 * junit or html report on stdout), kept in place on a terminal and absent otherwise: a CI log
 * or a script reading stderr gets only the lines it got before. Notes (a rate-limit wait) are
 * written above the line, not into it.
 */
import { createProgressCounter } from '../report/index.ts'
import type { CaseResult } from '../report/model.ts'

export interface TerminalProgress {
  onResult(r: CaseResult): void
  onProgress(done: number, total: number, unit: string): void
  /** A whole line (ending in a newline) printed above the progress line. */
  note(line: string): void
  /** Removes the line: the run is over. */
  end(): void
}

export function terminalProgress(stderr: NodeJS.WritableStream): TerminalProgress | undefined {
  if (!(stderr as NodeJS.WriteStream).isTTY) return undefined
  const counter = createProgressCounter()
  let shown = false
  const clear = () => {
    if (shown) stderr.write('\r\x1b[2K')
    shown = false
  }
  const draw = () => {
    stderr.write(`\r\x1b[2K${counter.live()}`)
    shown = true
  }
  return {
    onResult(r) {
      counter.add(r)
      draw()
    },
    onProgress(done, total, unit) {
      counter.setWork(done, total, unit)
      draw()
    },
    note(line) {
      const redraw = shown
      clear()
      stderr.write(line)
      if (redraw) draw()
    },
    end: clear,
  }
}
