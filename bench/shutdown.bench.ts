/**
 * SIGTERM under a load of new connections (issue 40): 10 trials of 24 reconnecting clients against
 * `oec serve` in its own process, in memory, with `--data` and with `--data --data-sync`, counting
 * resets and hang-ups against refusals; then the same with the handshake filter switched off
 * (`OEC_NO_LISTEN_FILTER=1`, the plain close) for comparison. Target: 0 resets with the filter.
 */
import { shutdownTrial } from '../test/helpers/shutdown-load.ts'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BenchRow, BenchSection } from './types.ts'

const TRIALS = 10
const CLIENTS = 24
const WARM = 150

async function trials(args: () => readonly string[]): Promise<{ resets: number; perTrial: number[]; answered: number; refused: number }> {
  const perTrial: number[] = []
  let answered = 0
  let refused = 0
  for (let i = 0; i < TRIALS; i++) {
    const t = await shutdownTrial(args(), CLIENTS, WARM)
    if (t.code !== 0) throw new Error(`bench: oec serve exited ${t.code} on SIGTERM`)
    perTrial.push(t.resets.length)
    answered += t.answered
    refused += t.refused
  }
  return { resets: perTrial.reduce((a, b) => a + b, 0), perTrial, answered, refused }
}

export default async function main(): Promise<BenchSection[]> {
  const dirs: string[] = []
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'oec-shutdown-'))
    dirs.push(dir)
    return dir
  }
  const modes: { name: string; args: () => readonly string[] }[] = [
    { name: 'memory', args: () => [] },
    { name: '--data', args: () => ['--data', dataDir()] },
    { name: '--data --data-sync', args: () => ['--data', dataDir(), '--data-sync'] },
  ]
  const rows: BenchRow[] = []
  const before = process.env.OEC_NO_LISTEN_FILTER
  try {
    for (const plain of [false, true]) {
      if (plain) process.env.OEC_NO_LISTEN_FILTER = '1'
      else delete process.env.OEC_NO_LISTEN_FILTER
      for (const mode of modes) {
        const r = await trials(mode.args)
        rows.push({
          name: `${mode.name}${plain ? ' (plain close)' : ''}`,
          value: `${r.resets} resets over ${TRIALS} trials [${r.perTrial.join(' ')}], ${r.answered} answered, ${r.refused} refused`,
        })
      }
    }
  } finally {
    if (before === undefined) delete process.env.OEC_NO_LISTEN_FILTER
    else process.env.OEC_NO_LISTEN_FILTER = before
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
  return [
    {
      title: `SIGTERM under a load of new connections (${CLIENTS} reconnecting clients)`,
      rows,
      notes: ['target: 0 resets over 10 trials with the filter (Linux, python3 on PATH)'],
    },
  ]
}
