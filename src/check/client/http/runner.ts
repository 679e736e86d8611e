/**
 * `oec check client --http`: the reference server (in process, on 127.0.0.1) behind one scenario
 * server per scenario; one client process per scenario, each with its own wallet, all scenarios
 * at once (they share nothing but the reference server, and wallets keep their state apart).
 * Each scenario is judged by its checks; a failing or warning result carries the scenario's
 * request timeline. A program that cannot start, or exits before its first answer without a
 * request, stops the run with one line (exit 2), not one failure per task.
 */
import { createHash } from 'node:crypto'
import { contractFor, type Contract, type FullContract } from '../../../contract/index.ts'
import { InputError } from '../../../errors.ts'
import type { CaseResult, RunSummary } from '../../../report/model.ts'
import { startServer } from '../../../server/server.ts'
import { clientCheck } from './checks/index.ts'
import { ENV } from './protocol.ts'
import { startScenarioServer } from './scenario-server.ts'
import { checksOf } from './plan.ts'
import { scenarios, type Scenario } from './scenarios.ts'
import { runSession, type SessionResult } from './session.ts'
import { renderTimeline } from './timeline.ts'

export interface HttpRunOptions {
  readonly command: readonly string[]
  /** Time for one task, retries included (ms). Default 30 s. */
  readonly timeoutMs?: number | undefined
  /** Extra time for the first answer after the client starts (ms). Default 20 s. */
  readonly startupMs?: number | undefined
  /** Scenario ids to run (all when empty). */
  readonly only?: readonly string[]
  readonly spec?: Contract | string | undefined
  readonly onResult?: (r: CaseResult) => void
}

/** A scenario's wallet key: fixed per scenario, so that a report can be reproduced. */
export function scenarioKey(id: string): `0x${string}` {
  return `0x${createHash('sha256').update(`oec check client --http/${id}`).digest('hex')}`
}

/** The scenarios a run covers (`only` by id), for orders in `symbol`. */
export function httpScenarios(symbol: string, only: readonly string[] = []): Scenario[] {
  const all = scenarios(symbol)
  return only.length === 0 ? all : all.filter((s) => only.includes(s.id))
}

function judge(
  scenario: Scenario,
  session: SessionResult,
  exchanges: Parameters<typeof renderTimeline>[1],
  contract: FullContract,
  ms: number,
): CaseResult[] {
  return checksOf(scenario).map((name) => {
    const check = clientCheck(name)
    const verdict = check.judge({ scenario, session, exchanges, contract })
    const base = { id: `${scenario.id}/${check.name}`, title: check.title, rules: [...check.rules], level: check.level, durationMs: ms }
    if (verdict.ok) return { ...base, outcome: 'pass' as const }
    return {
      ...base,
      outcome: check.level === 'stated' ? ('fail' as const) : ('warn' as const),
      message: verdict.message,
      details: {
        scenario: scenario.title,
        expected: verdict.expected,
        timeline: renderTimeline(session.tasks, exchanges, verdict.marks),
      },
    }
  })
}

export async function runClientHttpCheck(opts: HttpRunOptions): Promise<RunSummary> {
  const startedAt = new Date()
  const t0 = performance.now()
  const now = () => performance.now() - t0
  const contract = contractFor(opts.spec, ['catalog', 'typedData', 'rateLimits', 'websocket'], 'oec check client --http')
  const reference = await startServer({ spec: contract })
  const list = httpScenarios(reference.config.instruments[0]!, opts.only)
  const domain = contract.typedData.domains.options
  const abort = new AbortController()
  let startFailure: string | null = null
  try {
    const perScenario = await Promise.all(
      list.map(async (scenario) => {
        const server = await startScenarioServer({ contract, target: reference.url, now })
        const began = now()
        try {
          const session = await runSession(scenario, server, {
            command: opts.command,
            env: {
              [ENV.privateKey]: scenarioKey(scenario.id),
              [ENV.chainId]: String(domain?.chainId ?? reference.config.chainId),
              [ENV.domainName]: domain?.name ?? reference.config.domainName,
            },
            timeoutMs: opts.timeoutMs ?? 30_000,
            startupMs: opts.startupMs ?? 20_000,
            now,
            signal: abort.signal,
          })
          if (session.startFailure !== null && startFailure === null) {
            startFailure = session.startFailure
            abort.abort()
          }
          const results = judge(scenario, session, server.exchanges, contract, Math.round(now() - began))
          if (startFailure === null) for (const r of results) opts.onResult?.(r)
          return results
        } finally {
          await server.close()
        }
      }),
    )
    if (startFailure !== null) throw new InputError(`check client --http: ${opts.command.join(' ')}: ${startFailure}`)
    return {
      suite: 'oec check client --http',
      target: opts.command.join(' '),
      results: perScenario.flat(),
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(now()),
    }
  } finally {
    await reference.close()
  }
}
