/**
 * How often the concurrency checks catch the race-faulty servers of the tests (in-process, on
 * loopback, each run against a fresh server). The figure that matters is `nonce.race` against a
 * server whose nonce check and nonce mark are one event-loop turn apart: target ≥ 99 runs of 100.
 * `nonce.concurrent` (6 copies over the shared keep-alive client) against the same server is
 * the baseline. OEC_BENCH_RACE_RUNS sets the runs of the nonce race (default 100); every other
 * pair runs a tenth as often.
 */
import { runServerChecks } from '../src/check/server/index.ts'
import { NONCE_RACE_COPIES, NONCE_RACE_ROUNDS } from '../src/check/server/checks/nonce/race.ts'
import type { CheckSelector } from '../src/check/server/registry.ts'
import { RACE_SERVERS, type RaceServer } from '../test/fixtures/race-servers.ts'
import type { BenchSection } from './types.ts'

const RUNS = Number(process.env.OEC_BENCH_RACE_RUNS ?? 100)

interface Tally {
  caught: number
  runs: number
  /** Failure messages' `round k:` when the check names the round it caught the race in. */
  rounds: number[]
  ms: number
}

async function tally(server: RaceServer, id: CheckSelector, runs: number): Promise<Tally> {
  const t: Tally = { caught: 0, runs, rounds: [], ms: 0 }
  for (let i = 0; i < runs; i++) {
    const target = await server.start()
    const started = performance.now()
    try {
      const { summary } = await runServerChecks({
        target: target.url,
        clock: target.clock,
        symbols: target.symbols,
        only: [id],
        slow: true,
      })
      const failed = summary.results.find((r) => r.id === id && r.outcome === 'fail')
      if (failed) {
        t.caught++
        const round = /^round (\d+):/.exec(failed.message ?? '')?.[1]
        if (round) t.rounds.push(Number(round))
      }
    } finally {
      t.ms += performance.now() - started
      await target.close()
    }
  }
  return t
}

const byName = (name: string): RaceServer => {
  const s = RACE_SERVERS.find((r) => r.name === name)
  if (!s) throw new Error(`no race server ${name}`)
  return s
}

export default async function main(): Promise<BenchSection[]> {
  const nonceServer = byName('nonce check and mark split by an await')
  const race = await tally(nonceServer, 'nonce.race', RUNS)
  const baseline = await tally(nonceServer, 'nonce.concurrent', RUNS)
  const firstRound = race.rounds.filter((r) => r === 1).length
  const rows = [
    {
      name: `nonce.race (${NONCE_RACE_COPIES} copies × ${NONCE_RACE_ROUNDS} rounds)`,
      value: `${race.caught}/${race.runs} runs`,
      ratio: `${Math.round(race.ms / race.runs)} ms/run`,
    },
    { name: '  caught in its first round', value: `${firstRound}/${race.runs} runs` },
    { name: 'nonce.concurrent (6 copies, baseline)', value: `${baseline.caught}/${baseline.runs} runs` },
  ]
  const others: { name: string; value: string; ratio: string }[] = []
  const few = Math.max(1, Math.round(RUNS / 10))
  for (const server of RACE_SERVERS.filter((s) => s !== nonceServer)) {
    for (const id of server.caughtBy) {
      const t = await tally(server, id, few)
      others.push({ name: `${id} vs ${server.name}`, value: `${t.caught}/${t.runs} runs`, ratio: `${Math.round(t.ms / t.runs)} ms/run` })
    }
  }
  return [
    {
      title: 'Nonce race: a nonce check and mark one event-loop turn apart, caught in how many runs',
      rows,
      notes: [`target: ≥ 99 of 100 runs for nonce.race — ${race.caught * 100 >= race.runs * 99 ? 'met' : 'MISSED'}`],
    },
    { title: 'The other race-faulty servers, caught by their checks', rows: others },
  ]
}
