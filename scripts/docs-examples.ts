/**
 * The shell examples of the docs, run as a reader would type them. A fenced shell block with a
 * line that starts with `oec` (or `npx oec`) is an example block: the whole block runs as one
 * bash script (its variables and curl lines included) in a folder holding the files the examples
 * name (test/fixtures/docs-examples/), with `oec` on PATH and `127.0.0.1:8080` pointing at one
 * reference server started for the run. Each `oec` line must exit as its comment promises
 * (`# ... exits 1`; no promise means 0), and a `# {"status":...}` comment under a line is the
 * answer it promises (same `status`, same top-level keys). `oec serve` and `oec proxy` lines run
 * until they listen and then get Ctrl-C; `oec serve ... &` is the server the runner started.
 * Install lines (`npm`, `git`, `cd`) are the reader's set-up, not examples.
 *
 * A line that cannot run here says so before its block, with the reason:
 * `<!-- examples: skip "EXACT COMMAND": reason -->`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fencedBlocks, REPO_ROOT, SHELL_LANGS, shellCommands } from './docs-markdown.ts'
import { oecSegments } from './docs-flags.ts'

export interface Example {
  readonly file: string
  /** 1-based line of the command in the page. */
  readonly line: number
  /** The command as the page shows it (continuations joined, comment removed). */
  readonly command: string
  /** The exit code the text promises; `listens` for a server that runs until stopped. */
  readonly expect: number | 'listens'
  /** The answer the text promises under the command, when it shows one. */
  readonly promised?: Record<string, unknown>
  /** Why the example is not run, when its page says so. */
  readonly skip?: string
}

export interface ExampleBlock {
  readonly file: string
  readonly line: number
  /** Every logical line of the block in order; examples are the ones with an `oec` command. */
  readonly steps: readonly { readonly text: string; readonly example?: Example }[]
}

const INSTALL = /^(npm|git|cd|pnpm|yarn)\s|^npx (?!oec\s)/
const LONG_RUNNING = /^(npx )?oec (serve|proxy)\b/

/** The exit code a comment promises: `exits 1`, `exit 1`, `exit code 1`; none is 0. */
export function promisedExit(comment: string): number {
  const m = /\bexit(?:s| code)? (\d+)\b/.exec(comment)
  return m ? Number(m[1]) : 0
}

function promisedAnswer(comment: string): Record<string, unknown> | undefined {
  const start = comment.indexOf('{')
  const end = comment.lastIndexOf('}')
  if (!comment.startsWith('{') || end < start) return undefined
  try {
    // `…` marks what the page leaves out: `{"a":1,…}` promises `{"a":1}` and more.
    return JSON.parse(comment.slice(start, end + 1).replace(/,?\s*…/g, '')) as Record<string, unknown>
  } catch {
    return undefined
  }
}

function skips(text: string, blockLine: number): Map<string, string> {
  const before = text
    .split('\n')
    .slice(0, blockLine - 2)
    .reverse()
  const out = new Map<string, string>()
  for (const l of before) {
    const m = /^<!-- examples: skip "([^"]+)": (.+?) -->$/.exec(l.trim())
    if (m) out.set(m[1]!, m[2]!)
    else if (l.trim() !== '') break
  }
  return out
}

/** The example blocks of one page. */
export function exampleBlocks(file: string, text: string): ExampleBlock[] {
  const blocks: ExampleBlock[] = []
  for (const block of fencedBlocks(text).filter((b) => SHELL_LANGS.has(b.lang))) {
    const skip = skips(text, block.line)
    const steps: { text: string; example?: Example; candidate?: Example }[] = []
    for (const { line: at, code, comment } of shellCommands(block)) {
      const last = steps.at(-1)
      if (code === '') {
        // `# {...}` under a line: the answer it promises (a curl line's too, which makes it an example).
        const promised = promisedAnswer(comment)
        const shown = last?.example ?? last?.candidate
        if (promised !== undefined && last !== undefined && shown !== undefined && shown.promised === undefined)
          steps[steps.length - 1] = { ...last, example: { ...shown, promised } }
        continue
      }
      if (INSTALL.test(code)) continue
      const command = code
      const candidate: Example = { file, line: at, command, expect: promisedExit(comment) }
      if (oecSegments(command).length === 0) {
        steps.push({ text: command, candidate })
        continue
      }
      // `oec serve ... &`: the reader's server, which the runner's server stands in for.
      if (/^(npx )?oec serve\b.*&$/.test(command)) continue
      const example: Example = {
        ...candidate,
        ...(LONG_RUNNING.test(command) ? { expect: 'listens' as const } : {}),
        ...(skip.has(command) ? { skip: skip.get(command)! } : {}),
      }
      steps.push({ text: command, example })
    }
    if (steps.some((s) => s.example && oecSegments(s.text).length > 0))
      blocks.push({ file, line: block.line, steps: steps.map(({ text, example }) => (example ? { text, example } : { text })) })
  }
  return blocks
}

export const examplesOf = (blocks: readonly ExampleBlock[]) => blocks.flatMap((b) => b.steps.flatMap((s) => (s.example ? [s.example] : [])))

// ---------------------------------------------------------------------------------------------
// Running them

export interface ExampleResult {
  readonly example: Example
  /** The line ran to its end (a block cut by its timeout leaves lines that did not). */
  readonly ran: boolean
  /** Exit code of every `oec` the line ran (a pipeline may run two). */
  readonly exits: readonly number[]
  readonly answer?: string
  /** What the block printed, for the failure message. */
  readonly output: string
}

export interface Workspace {
  readonly dir: string
  readonly env: NodeJS.ProcessEnv
  readonly port: number
}

/** A key for each page (its blocks run in order, as a reader runs them), so that pages running side by side never share a wallet. */
export function pageKey(file: string): string {
  return `0x${createHash('sha256').update(`oec docs example ${file}`).digest('hex')}`
}

const derivedKey = (key: string, name: string) => `0x${createHash('sha256').update(`${key}:${name}`).digest('hex')}`

/** The page's text, made to run here: the runner's port, concrete keys and addresses for `0x…` placeholders, `oec` for `npx oec`. */
export function localize(text: string, port: number, key: string): string {
  return text
    .replace(/\b(127\.0\.0\.1|localhost):808[01]\b/g, `127.0.0.1:${port}`)
    .replace(/--port 808\d\b/g, '--port 0')
    .replace(
      /\b([A-Z_]*KEY)=0x[0-9A-Za-z]*(…|\.\.\.?)/g,
      (_, name: string) => `${name}=${name === 'OEC_PRIVATE_KEY' ? key : derivedKey(key, name)}`,
    )
    .replace(/0x[0-9A-Fa-f]*(…|\.\.\.?)/g, '0x00000000000000000000000000000000000000aa')
    .replace(/(^|[\s|$(])npx oec\b/g, '$1oec')
}

/** The fixtures copied to a fresh folder, `oec` on PATH as the binary of this checkout. */
export function makeWorkspace(port: number): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'oec-docs-examples-'))
  cpSync(join(REPO_ROOT, 'test', 'fixtures', 'docs-examples'), dir, { recursive: true })
  // Files the pages name that are the shipped spec or a variant of it, made from it rather than copied into fixtures.
  const spec = readFileSync(join(REPO_ROOT, 'spec', 'openapi.yaml'), 'utf8')
  for (const d of ['spec', 'api']) mkdirSync(join(dir, d), { recursive: true })
  writeFileSync(join(dir, 'spec', 'openapi.yaml'), spec)
  writeFileSync(join(dir, 'api', 'openapi-rc.yaml'), spec)
  cpSync(join(REPO_ROOT, 'spec', 'rules.yaml'), join(dir, 'api', 'rules.yaml'))
  // lint.md: "batch_too_large's catalog entry renamed to invalid_field".
  writeFileSync(join(dir, 'broken.yaml'), spec.replace('- code: batch_too_large', '- code: invalid_field'))
  const bin = join(dir, '.bin')
  mkdirSync(bin)
  writeFileSync(join(bin, 'oec'), `#!/bin/sh\nexec "${process.execPath}" "${join(REPO_ROOT, 'bin', 'oec.js')}" "$@"\n`)
  chmodSync(join(bin, 'oec'), 0o755)
  const base = `http://127.0.0.1:${port}`
  return { dir, port, env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, BASE: base, BASE_URL: base, OEC_DEBUG: '' } }
}

function run(child: ChildProcess, timeoutMs: number, until?: RegExp): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = ''
    let stopped = false
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    const seen = (d: Buffer) => {
      output += d
      // One Ctrl-C: a second one while it stops would be a reader's impatience, not the example.
      if (!stopped && until?.test(output)) {
        stopped = true
        child.kill('SIGINT')
      }
    }
    child.stdout?.on('data', seen)
    child.stderr?.on('data', seen)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

/** Runs one block: a bash script whose `oec` is a function that records each exit code under the page line. */
export async function runBlock(block: ExampleBlock, ws: Workspace, timeoutMs = 180_000): Promise<ExampleResult[]> {
  const key = pageKey(block.file)
  const log = join(ws.dir, `.exits-${block.line}-${block.file.replace(/\W/g, '_')}`)
  const results: ExampleResult[] = []
  const script = [
    `export OEC_PRIVATE_KEY=${key}`,
    `oec() { command oec "$@"; local rc=$?; echo "$__OEC_LINE $rc" >> '${log}'; return $rc; }`,
  ]
  for (const step of block.steps) {
    const text = localize(step.text, ws.port, key)
    const ex = step.example
    if (ex?.skip !== undefined) continue
    if (ex?.expect === 'listens') {
      const child = spawn('bash', ['-c', text.replace(/^(npx )?oec /, 'exec oec ') + (/--port\b/.test(text) ? '' : ' --port 0')], {
        cwd: ws.dir,
        env: ws.env,
      })
      const r = await run(child, 120_000, /listening on/)
      results.push({ example: ex, ran: true, exits: /listening on/.test(r.output) ? [r.code ?? -1] : [], output: r.output })
      continue
    }
    if (ex === undefined) script.push(text)
    else if (ex.promised !== undefined)
      script.push(`__OEC_LINE=${ex.line}`, `{ ${text}\n} > '${log}.${ex.line}.out'`, `echo "${ex.line} done" >> '${log}'`)
    else script.push(`__OEC_LINE=${ex.line}`, text, `echo "${ex.line} done" >> '${log}'`)
  }
  const r = await run(spawn('bash', ['-c', script.join('\n')], { cwd: ws.dir, env: ws.env }), timeoutMs)
  let logged = ''
  try {
    logged = readFileSync(log, 'utf8')
  } catch {}
  for (const ex of examplesOf([block])) {
    if (ex.skip !== undefined || ex.expect === 'listens') continue
    const mine = logged.split('\n').filter((l) => l.startsWith(`${ex.line} `))
    const exits = mine.filter((l) => !l.endsWith(' done')).map((l) => Number(l.split(' ')[1]))
    let answer: string | undefined
    if (ex.promised !== undefined)
      try {
        answer = readFileSync(`${log}.${ex.line}.out`, 'utf8')
      } catch {}
    results.push({
      example: ex,
      ran: mine.some((l) => l.endsWith(' done')),
      exits,
      output: r.output,
      ...(answer !== undefined ? { answer } : {}),
    })
  }
  return results
}

/** Runs pages `parallel` at a time (the machine, not the examples, sets the limit), each page's blocks in order. */
export async function runBlocks(blocks: readonly ExampleBlock[], ws: Workspace, parallel: number): Promise<ExampleResult[]> {
  const pages = [...new Set(blocks.map((b) => b.file))].map((f) => blocks.filter((b) => b.file === f))
  const out: ExampleResult[] = []
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let page = pages.shift(); page !== undefined; page = pages.shift()) for (const b of page) out.push(...(await runBlock(b, ws)))
    }),
  )
  return out
}

/** What is wrong with one result, or undefined when the example kept its promise. */
export function verdict(r: ExampleResult): string | undefined {
  const { example: ex } = r
  const where = `${ex.file}:${ex.line} \`${ex.command}\``
  const tail = r.output.trim().split('\n').slice(-6).join('\n')
  if (ex.expect === 'listens')
    return r.exits.length === 0
      ? `${where}: never printed "listening on"\n${tail}`
      : r.exits[0] !== 0
        ? `${where}: ${r.exits[0] === -1 ? 'ended by a signal (or the 2-minute limit) after' : `exited ${r.exits[0]} after`} Ctrl-C (0 expected)\n${tail}`
        : undefined
  if (!r.ran) return `${where}: did not run (the block stopped before it)\n${tail}`
  const wrong = r.exits.filter((c) => c !== ex.expect)
  if (wrong.length > 0) return `${where}: exited ${wrong.join(', ')}, the page promises ${ex.expect}\n${tail}`
  if (ex.promised !== undefined) {
    const line = (r.answer ?? '').trim().split('\n').at(-1) ?? ''
    let got: Record<string, unknown> | undefined
    try {
      got = JSON.parse(line) as Record<string, unknown>
    } catch {}
    const keys = (o: object) => Object.keys(o).sort().join(',')
    if (got === undefined || got.status !== ex.promised.status || keys(got) !== keys(ex.promised))
      return `${where}: answered ${line || '(nothing)'}, the page promises ${JSON.stringify(ex.promised)}`
  }
  return undefined
}
