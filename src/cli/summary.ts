/**
 * The top-level help lists every command, which used to mean loading every command module (and
 * the check registry, the server, ts-morph...) just to print one line each. The build writes the
 * list once (`commands.json` beside the compiled CLI) and `oec --help` reads it; from src/, in
 * development, there is no such file and the modules are loaded as before. Written from the
 * modules themselves, so it cannot drift from them.
 *
 * Beside it, `settings.json`: every command path with the option names it takes, so a config
 * file can be checked key by key (a misspelt key is an error, never silently ignored) without
 * loading every command to learn what the other commands accept.
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

/** Command path (`check server`) → the attribute names of its options (`domainName`). */
export type SettingsIndex = Readonly<Record<string, readonly string[]>>

const SUMMARY_URL = new URL('./commands.json', import.meta.url)
const SETTINGS_URL = new URL('./settings.json', import.meta.url)

async function everyCommand(): Promise<Command> {
  const program = new Command('oec')
  const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }
  for (const c of commands) (await c.load()).register(program, io, () => {})
  return program
}

export async function summarizeCommands(program?: Command): Promise<CommandSummary[]> {
  const all = program ?? (await everyCommand())
  const help = new Help()
  return all.commands.map((cmd) => ({ name: cmd.name(), term: help.subcommandTerm(cmd), description: cmd.description() }))
}

/** Every command below `program`, at any depth, with its options. */
export function indexSettings(program: Command): SettingsIndex {
  const out: Record<string, string[]> = {}
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      const here = [...path, sub.name()]
      out[here.join(' ')] = sub.options.map((o) => o.attributeName())
      walk(sub, here)
    }
  }
  walk(program, [])
  return out
}

/** Run by `npm run build` on the compiled CLI. */
export async function writeCommandSummary(): Promise<void> {
  const program = await everyCommand()
  writeFileSync(SUMMARY_URL, `${JSON.stringify(await summarizeCommands(program), null, 2)}\n`)
  writeFileSync(SETTINGS_URL, `${JSON.stringify(indexSettings(program), null, 2)}\n`)
}

/** The summary the build wrote, or undefined when running from src/. */
export function readCommandSummary(): CommandSummary[] | undefined {
  try {
    return JSON.parse(readFileSync(SUMMARY_URL, 'utf8')) as CommandSummary[]
  } catch {
    return undefined
  }
}

/** The settings index the build wrote; from src/, built by loading every command. */
export async function readSettingsIndex(): Promise<SettingsIndex> {
  try {
    return JSON.parse(readFileSync(SETTINGS_URL, 'utf8')) as SettingsIndex
  } catch {
    return indexSettings(await everyCommand())
  }
}
