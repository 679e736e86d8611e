/**
 * The composite action and the example workflows of docs/ci/ stay usable: valid YAML; the action
 * installs the packed package (cached) rather than building on every use, and hands `args` to
 * `oec` without a shell's word splitting; every `oec` invocation in an example names a command
 * and flags that `oec <command> --help` lists (the explore campaign's matrix and merge jobs included). The action's shell steps also run here, as a
 * runner would run them (a packed tarball installed, then a cache hit), except the `uses:` steps
 * (setup-node; actions/cache is played by "the folder exists").
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { parseActionArgs } from '../../src/cli/action-args.ts'
import { ROOT } from '../helpers/cli.ts'
import { runMain } from '../helpers/main.ts'

interface WorkflowStep {
  name?: string
  uses?: string
  id?: string
  if?: string
  run?: string
  env?: Record<string, string>
  with?: Record<string, string>
  'working-directory'?: string
}
interface Workflow {
  jobs: Record<string, { steps: WorkflowStep[] }>
}
interface Action {
  inputs: Record<string, { default?: string }>
  runs: { using: string; steps: WorkflowStep[] }
}

const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action
const examples = readdirSync(join(ROOT, 'docs', 'ci')).filter((f) => f.endsWith('.yml'))

describe('the action input args', () => {
  it('a JSON array, or one argument per line (as a YAML list or not), reaches oec whole', () => {
    const curl = `curl -X POST $BASE/order -d @'my body.json'`
    expect(parseActionArgs(JSON.stringify(['explain', '--curl', curl]))).toEqual(['explain', '--curl', curl])
    expect(parseActionArgs(`- lint\n- "spec dir/open api.yaml"\n# a comment\n\n- --format=json\n`)).toEqual([
      'lint',
      'spec dir/open api.yaml',
      '--format=json',
    ])
    expect(parseActionArgs('check\nserver\n--only=auth,nonce.*\n$HOME/x')).toEqual(['check', 'server', '--only=auth,nonce.*', '$HOME/x'])
    expect(parseActionArgs("  - 'it''s one'  ")).toEqual(["it's one"])
  })

  it.each([[''], ['  \n# only a comment\n'], ['[1, 2]'], ['["lint"']])('%j is refused with one line', (input) => {
    expect(() => parseActionArgs(input)).toThrow(/action input args/)
  })
})

describe('CI recipes', () => {
  it('action.yml is composite, installs a packed package under a cache, and passes args only through the environment', () => {
    expect(action.runs.using).toBe('composite')
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['args', 'package', 'working-directory', 'node-version']))
    const steps = action.runs.steps
    const cache = steps.find((s) => s.uses?.startsWith('actions/cache@'))
    expect(cache?.with?.key).toContain('steps.key.outputs.key')
    const install = steps.find((s) => s.run?.includes('npm install'))
    expect(install?.if).toBe(`steps.${cache!.id}.outputs.cache-hit != 'true'`)
    expect(install?.run).toContain('--omit=dev')
    // npm ci (and the build it implies) only where no package is given, on a cache miss.
    for (const s of steps.filter((s) => s.run?.includes('npm ci'))) expect(s).toBe(install)
    const oec = steps.find((s) => s.id === 'oec')!
    expect(oec.env?.OEC_ARGS).toMatch(/^\$\{\{ inputs\.args \}\}$/)
    expect(oec.run).toContain('bin/oec-action.js')
    for (const s of steps) expect(s.run ?? '', 'no input is pasted into a script').not.toMatch(/\$\{\{\s*inputs\./)
    expect(oec.run).not.toMatch(/\$OEC_ARGS/)
  })

  it('there is an example for each job: check server, check client --http, diff, generate --check, an explore campaign', () => {
    expect(examples.sort()).toEqual(['check-client-http.yml', 'check-server.yml', 'diff.yml', 'explore-campaign.yml', 'generate-check.yml'])
  })

  it.each(examples)('%s: every oec command and flag exists', async (file) => {
    const wf = parse(readFileSync(join(ROOT, 'docs', 'ci', file), 'utf8')) as Workflow
    const calls = actionArgs(wf)
    expect(calls.length).toBeGreaterThan(0)
    for (const words of calls) {
      const command = words[0] === 'check' || words[0] === 'report' ? words.slice(0, 2) : words.slice(0, 1)
      const help = await runMain([...command, '--help'])
      expect(help.code, `${file}: oec ${command.join(' ')} --help`).toBe(0)
      // After a bare `--` come the testee's own arguments, not oec's.
      const end = words.indexOf('--')
      for (const flag of words.slice(0, end < 0 ? undefined : end).filter((w) => w.startsWith('--')))
        expect(help.stdout, `${file}: ${flag}`).toContain(flag.replace(/=.*$/, ''))
    }
  })

  it('check-client-http.yml: its arguments, with a reference client as the driver, pass and write the JUnit report', async () => {
    const wf = parse(readFileSync(join(ROOT, 'docs', 'ci', 'check-client-http.yml'), 'utf8')) as Workflow
    const [words] = actionArgs(wf)
    const end = words!.indexOf('--')
    expect(words!.slice(0, 3)).toEqual(['check', 'client', '--http'])
    expect(end).toBeGreaterThan(0)
    const out = words!.find((w) => w.startsWith('--out='))!.slice('--out='.length)
    const dir = mkdtempSync(join(tmpdir(), 'oec-ci-client-'))
    try {
      // The team's driver (after `--`) is stood in for by the Python reference client.
      const args = [
        ...words!.slice(0, end).map((w) => (w === `--out=${out}` ? `--out=${join(dir, out)}` : w)),
        '--',
        '/usr/bin/python3',
        join(ROOT, 'examples', 'python', 'client.py'),
      ]
      const r = await runMain(args)
      expect(r.code, r.stderr).toBe(0)
      const xml = readFileSync(join(dir, out), 'utf8')
      expect(xml).toMatch(/<testsuites[^>]* failures="0"/)
      expect(xml).toMatch(/<testcase classname="rate-limited"/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})

/** The argument vectors the workflow's steps hand to the action. */
function actionArgs(wf: Workflow): string[][] {
  return Object.values(wf.jobs).flatMap((j) =>
    j.steps.map((s) => s.with?.args).flatMap((a) => (a === undefined ? [] : [parseActionArgs(a)])),
  )
}

/** Runs the action's `run:` steps with bash as a runner does: inputs, env and step outputs substituted, GITHUB_ENV applied. */
function runAction(
  inputs: Record<string, string>,
  env: Record<string, string>,
): { ran: string[]; exitCode: string; stdout: string; stderr: string } {
  const given = (name: string) => inputs[name] ?? action.inputs[name]?.default ?? ''
  const outputs: Record<string, Record<string, string>> = {}
  const stepEnv: Record<string, string> = {}
  const ran: string[] = []
  let stdout = ''
  let stderr = ''
  const expand = (s: string) =>
    s.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, path: string) => {
      const [scope, a, b, c] = path.split('.')
      if (scope === 'inputs') return given(a!)
      if (scope === 'env') return stepEnv[a!] ?? ''
      if (scope === 'steps' && b === 'outputs') return outputs[a!]?.[c!] ?? ''
      throw new Error(`expression ${path} not simulated`)
    })
  for (const step of action.runs.steps) {
    if (step.uses?.startsWith('actions/cache@')) {
      // actions/cache restores the folder on a hit; here the folder survives from the earlier run.
      outputs[step.id!] = { 'cache-hit': existsSync(expand(step.with!.path!)) ? 'true' : 'false' }
      continue
    }
    if (step.uses) continue
    const cond = step.if && /^steps\.(\w+)\.outputs\.cache-hit != 'true'$/.exec(step.if)
    if (step.if && !cond) throw new Error(`if: ${step.if} not simulated`)
    if (cond && outputs[cond[1]!]?.['cache-hit'] === 'true') continue
    const dir = mkdtempSync(join(tmpdir(), 'oec-action-step-'))
    const [outFile, envFile] = [join(dir, 'output'), join(dir, 'env')]
    writeFileSync(outFile, '')
    writeFileSync(envFile, '')
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], {
      // A runner resolves working-directory from the workspace.
      cwd: resolve(env.GITHUB_WORKSPACE!, expand(step['working-directory'] ?? '.')),
      env: {
        ...process.env,
        ...env,
        ...stepEnv,
        ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v)])),
        GITHUB_OUTPUT: outFile,
        GITHUB_ENV: envFile,
      },
      encoding: 'utf8',
    })
    ran.push(step.name ?? step.id ?? '?')
    if (step.id === 'oec') [stdout, stderr] = [r.stdout, r.stderr]
    else if (r.status !== 0) throw new Error(`step ${step.name} exited ${r.status}: ${r.stderr}`)
    const pairs = (f: string) =>
      Object.fromEntries(
        readFileSync(f, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => l.split(/=(.*)/s).slice(0, 2)),
      )
    if (step.id) outputs[step.id] = pairs(outFile)
    Object.assign(stepEnv, pairs(envFile))
    rmSync(dir, { recursive: true, force: true })
  }
  return { ran, exitCode: outputs.oec?.['exit-code'] ?? '', stdout, stderr }
}

describe('the action, run locally', () => {
  const work = mkdtempSync(join(tmpdir(), 'oec-action-'))
  // The action's own checkout copy holds a whole node_modules: removing it takes a while on a busy box.
  afterAll(() => rmSync(work, { recursive: true, force: true }), 180_000)

  it('installs the packed tarball once, then runs from the cache; an argument with spaces stays whole', () => {
    // The tarball of the current build (the test setup keeps dist/ fresh; --ignore-scripts: prepack would delete dist/ under other tests).
    const tarball = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .at(-1)!
    const workspace = join(work, 'repo')
    mkdirSync(join(workspace, 'my specs'), { recursive: true })
    writeFileSync(join(workspace, 'my specs', 'open api.yaml'), readFileSync(join(ROOT, 'spec', 'openapi.yaml')))
    const env = { GITHUB_WORKSPACE: workspace, GITHUB_ACTION_PATH: ROOT, RUNNER_OS: 'Linux', RUNNER_TOOL_CACHE: join(work, 'tool-cache') }
    const args = '- lint\n- my specs/open api.yaml\n- --format=json\n'

    const first = runAction({ package: join(work, tarball), args }, env)
    expect(first.ran).toContain('Install oec (cache miss)')
    expect(first.exitCode, first.stderr).toBe('0')
    expect(JSON.parse(first.stdout)).toMatchObject({ file: 'my specs/open api.yaml' })

    const second = runAction({ package: join(work, tarball), args: JSON.stringify(['lint', 'my specs/no such.yaml']) }, env)
    expect(second.ran).not.toContain('Install oec (cache miss)')
    expect(second.exitCode, second.stderr).toBe('2')
    expect(second.stderr).toMatch(/my specs\/no such\.yaml/)
  }, 240_000)

  it('without a package input, packs its own checkout once (dev dependencies build dist/), then runs from the cache', () => {
    // A copy of the checkout stands for the action's own: npm ci there must leave this one's node_modules alone.
    const actionPath = join(work, 'action')
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter((f) => f !== '' && !f.startsWith('test/') && existsSync(join(ROOT, f)))
    for (const f of files) {
      mkdirSync(dirname(join(actionPath, f)), { recursive: true })
      cpSync(join(ROOT, f), join(actionPath, f))
    }
    const workspace = join(work, 'repo-without-package')
    mkdirSync(workspace, { recursive: true })
    const toolCache = join(work, 'tool-cache-without-package')
    const env = {
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: actionPath,
      RUNNER_OS: 'Linux',
      RUNNER_TOOL_CACHE: toolCache,
      // npm's own cache first when it holds the lockfile's packages (the registry otherwise); the steps are the action's.
      npm_config_prefer_offline: 'true',
    }
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version

    const first = runAction({ package: '', args: '["--version"]' }, env)
    expect(first.ran).toContain('Install oec (cache miss)')
    expect(first.exitCode, first.stderr).toBe('0')
    expect(first.stdout.trim()).toBe(version)
    // The cached install is the packed checkout with its runtime dependencies only.
    const [home, ...others] = readdirSync(join(toolCache, 'order-entry-conformance'))
    expect(others).toEqual([])
    const installed = join(toolCache, 'order-entry-conformance', home!)
    expect(readdirSync(installed).filter((f) => f.endsWith('.tgz'))).toEqual([`order-entry-conformance-${version}.tgz`])
    expect(existsSync(join(installed, 'node_modules', 'order-entry-conformance', 'dist', 'src', 'cli', 'main.js'))).toBe(true)
    expect(existsSync(join(installed, 'node_modules', 'typescript'))).toBe(false)

    const second = runAction({ package: '', args: JSON.stringify(['lint', 'no such.yaml']) }, env)
    expect(second.ran).not.toContain('Install oec (cache miss)')
    expect(second.exitCode, second.stderr).toBe('2')
    expect(second.stderr).toMatch(/no such\.yaml/)
  }, 600_000)
})
