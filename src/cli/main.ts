import { readFileSync } from 'node:fs'
import { OecError } from '../errors.ts'
import { commands } from './commands/index.ts'
import { Command, CommanderError, Help, type CliIO, type ExitCode } from './program.ts'
import { readCommandSummary, readSettingsIndex } from './summary.ts'
import { oneLineUsageError } from './usage-error.ts'
import { applySettings, checkConfigKeys, checkEnvNames, findConfig } from './config.ts'
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
  quietOnClosedPipe(io.stdout)
  let code: ExitCode = 0
  const done = (c: ExitCode) => {
    code = c
  }
  const program = new Command('oec')
    .description('Conformance checks, codegen and release checks for the signed order-entry API')
    .version(pkg.version, '-V, --version')
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(oneLineUsageError(s, '')),
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
  // Each command's parse errors are one line naming that command's fix.
  const inherit = (cmd: Command, path: string) => {
    for (const sub of cmd.commands) {
      const subPath = path === '' ? sub.name() : `${path} ${sub.name()}`
      sub.exitOverride().configureOutput({
        ...program.configureOutput(),
        outputError: (s, write) => write(oneLineUsageError(s, subPath)),
      })
      inherit(sub, subPath)
    }
  }
  inherit(program, '')
  // Flags a team repeats come from OEC_* variables or oec.config.*, for the command that runs.
  // Every key of the file is checked against every command's options first: a misspelt one is an
  // error, never a setting silently dropped.
  program.hook('preAction', async (_program, action) => {
    const config = await findConfig()
    checkEnvNames()
    if (config) checkConfigKeys(config, await readSettingsIndex())
    applySettings(action, config)
  })
  program.addHelpText('after', SETTINGS_HELP)

  try {
    await program.parseAsync([...argv], { from: 'user' })
    return code
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return 0
      // `oec` or `oec check` without a command: the help went to stderr, and nothing ran.
      if (err.code === 'commander.help') return err.exitCode === 0 ? 0 : 2
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

const SETTINGS_HELP = `
Settings: every option can also come from an OEC_<OPTION> environment variable (--domain-name:
OEC_DOMAIN_NAME; a list as a JSON array, one item a line, or comma-separated; OEC_HEADER takes
JSON or lines only, as a header value may hold a comma) or from oec.config.{json,yaml,js} /
package.json "oec" (option names at the top level, or under a command: {"check server":
{"workers": 4}}); the instrument list is "symbols" (OEC_SYMBOLS) everywhere. An unknown key is
an error. A flag wins over the environment, which wins over the file.`

/**
 * `oec … | head` closes stdout early: that is the reader saying it has enough, not an error.
 * Without a listener node throws EPIPE as an uncaught stack trace.
 */
function quietOnClosedPipe(stream: NodeJS.WritableStream): void {
  if (stream.listenerCount('error') > 0) return
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0)
    throw err
  })
}
