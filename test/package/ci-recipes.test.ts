/**
 * The composite action and the example workflows of docs/ci/ stay usable: valid YAML, the action
 * is composite and runs the package's binary, and every `oec` invocation in an example names a
 * command and flags that `oec <command> --help` lists.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { ROOT } from '../helpers/cli.ts'
import { runMain } from '../helpers/main.ts'

interface Step {
  uses?: string
  with?: { args?: string }
}
interface Workflow {
  jobs: Record<string, { steps: Step[] }>
}

const examples = readdirSync(join(ROOT, 'docs', 'ci')).filter((f) => f.endsWith('.yml'))

describe('CI recipes', () => {
  it('action.yml is a composite action that runs bin/oec.js with the args input', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
      inputs: Record<string, unknown>
      runs: { using: string; steps: { run?: string }[] }
    }
    expect(action.runs.using).toBe('composite')
    expect(Object.keys(action.inputs)).toContain('args')
    expect(action.runs.steps.some((s) => s.run?.includes('bin/oec.js') && s.run.includes('$OEC_ARGS'))).toBe(true)
  })

  it('there is an example for each job: check server, diff, generate --check', () => {
    expect(examples.sort()).toEqual(['check-server.yml', 'diff.yml', 'generate-check.yml'])
  })

  it.each(examples)('%s: every oec command and flag exists', async (file) => {
    const wf = parse(readFileSync(join(ROOT, 'docs', 'ci', file), 'utf8')) as Workflow
    const calls = Object.values(wf.jobs).flatMap((j) => j.steps.map((s) => s.with?.args).filter((a): a is string => a !== undefined))
    expect(calls.length).toBeGreaterThan(0)
    for (const args of calls) {
      const words = args.split(/\s+/).filter(Boolean)
      const command = words[0] === 'check' ? words.slice(0, 2) : words.slice(0, 1)
      const help = await runMain([...command, '--help'])
      expect(help.code, `${file}: oec ${command.join(' ')} --help`).toBe(0)
      for (const flag of words.filter((w) => w.startsWith('--'))) expect(help.stdout, `${file}: ${flag}`).toContain(flag)
    }
  })
})
