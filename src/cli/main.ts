import { readFileSync } from 'node:fs'
import { OecError } from '../errors.ts'
import { commands } from './commands/index.ts'
import { Command, CommanderError, Help, type CliIO, type ExitCode } from './program.ts'
import { readCommandSummary } from './summary.ts'
import { packagePath } from '../package-root.ts'

const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }

/**
 * Runs `oec` with the given arguments and resolves to the exit code. Errors a user can act on
 * print one line; an unexpected error prints one line too (set OEC_DEBUG=1 for the stack).
 */
export async function main(
  argv: readonly string[],
  io: CliIO = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin },
): Promise<number> {
  let code: ExitCode = 0
  const done = (c: ExitCode) => {
    code = c
  }
  const program = new Command('oec')
    .description('Conformance checks, codegen and release checks for the signed order-entry API')
    .version(pkg.version, '-V, --version')
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .exitOverride()
  // Load only the command being run. Anything else (help, a typo) lists them all: from the
  // summary the build wrote when there is one, else by loading every module.
  const words = argv.filter((a) => !a.startsWith('-'))
  const first = words[0] === 'help' ? words[1] : words[0]
  const chosen = commands.filter((c) => c.name === first)
  const summary = chosen.length === 0 ? readCommandSummary() : undefined
  if (summary !== undefined) {
    const terms = new Map(summary.map((s) => [s.name, s.term]))
    for (const s of summary) program.command(s.name).description(s.description)
    const help = new Help()
    program.configureHelp({ subcommandTerm: (cmd) => terms.get(cmd.name()) ?? help.subcommandTerm(cmd) })
  } else {
    for (const c of chosen.length > 0 ? chosen : commands) (await c.load()).register(program, io, done)
  }
  const inherit = (cmd: Command) => {
    for (const sub of cmd.commands) {
      sub.exitOverride().configureOutput(program.configureOutput())
      inherit(sub)
    }
  }
  inherit(program)

  try {
    await program.parseAsync([...argv], { from: 'user' })
    return code
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0
      if (err.code === 'oec.usage') io.stderr.write(`oec: ${err.message}\n`)
      return 2
    }
    if (err instanceof OecError) {
      io.stderr.write(`oec: ${err.message}\n`)
      return err.exitCode
    }
    const message = err instanceof Error ? err.message : String(err)
    io.stderr.write(`oec: internal error: ${message.split('\n')[0]}\n`)
    if (process.env.OEC_DEBUG) io.stderr.write(`${(err as Error).stack ?? ''}\n`)
    return 70
  }
}
