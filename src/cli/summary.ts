/**
 * The top-level help lists every command, which used to mean loading every command module (and
 * the check registry, the server, ts-morph...) just to print one line each. The build writes the
 * list once (`commands.json` beside the compiled CLI) and `oec --help` reads it; from src/, in
 * development, there is no such file and the modules are loaded as before. Written from the
 * modules themselves, so it cannot drift from them.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { commands } from './commands/index.ts'
import { Command, Help } from './program.ts'

export interface CommandSummary {
  readonly name: string
  /** As the help lists it: `lint [options] [spec]`. */
  readonly term: string
  readonly description: string
}

const SUMMARY_URL = new URL('./commands.json', import.meta.url)

export async function summarizeCommands(): Promise<CommandSummary[]> {
  const program = new Command('oec')
  const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }
  for (const c of commands) (await c.load()).register(program, io, () => {})
  const help = new Help()
  return program.commands.map((cmd) => ({ name: cmd.name(), term: help.subcommandTerm(cmd), description: cmd.description() }))
}

/** Run by `npm run build` on the compiled CLI. */
export async function writeCommandSummary(): Promise<void> {
  writeFileSync(SUMMARY_URL, `${JSON.stringify(await summarizeCommands(), null, 2)}\n`)
}

/** The summary the build wrote, or undefined when running from src/. */
export function readCommandSummary(): CommandSummary[] | undefined {
  try {
    return JSON.parse(readFileSync(SUMMARY_URL, 'utf8')) as CommandSummary[]
  } catch {
    return undefined
  }
}
