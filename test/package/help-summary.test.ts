/**
 * `oec --help` from the build lists the commands from dist/src/cli/commands.json instead of
 * loading every module; it must print exactly what loading them prints (the in-process run from
 * src/ has no summary file and loads them all).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { commands } from '../../src/cli/commands/index.ts'
import { summarizeCommands } from '../../src/cli/summary.ts'
import { ROOT, runOec } from '../helpers/cli.ts'
import { runMain } from '../helpers/main.ts'

describe('the command summary behind oec --help', () => {
  it('the build wrote one entry per command', async () => {
    expect(existsSync(join(ROOT, 'dist', 'src', 'cli', 'commands.json'))).toBe(true)
    expect((await summarizeCommands()).map((s) => s.name)).toEqual(commands.map((c) => c.name))
  })

  it.each([['--help'], ['help'], []])('oec %s: the binary (summary) prints what loading every module prints', async (...args) => {
    const [bin, inProcess] = await Promise.all([runOec(args), runMain(args)])
    // Without arguments the help goes to stderr.
    expect(bin.stdout + bin.stderr).toContain('lint [options] [spec]')
    expect(bin.stdout).toBe(inProcess.stdout)
    expect(bin.stderr).toBe(inProcess.stderr)
    expect(bin.code).toBe(inProcess.code)
  })

  it('a typo gets one line naming the fix (the suggestion) and exit 2', async () => {
    const r = await runOec(['chek'])
    expect(r.stderr).toBe("oec: unknown command 'chek': did you mean `oec check`?\n")
    expect(r.stdout).toBe('')
    expect(r.code).toBe(2)
  })

  it.each([
    [['check', 'srever'], /^oec: unknown command 'srever': did you mean `oec check server`\?\n$/],
    [['xyzzy'], /^oec: unknown command 'xyzzy': `oec --help` lists the commands\n$/],
    [['lint', '--bogus'], /^oec: unknown option '--bogus': see `oec lint --help`\n$/],
  ])('oec %j: one line naming the fix, exit 2', async (args, line) => {
    const r = await runOec(args)
    expect(r.stderr).toMatch(line)
    expect(r.code).toBe(2)
  })
})
