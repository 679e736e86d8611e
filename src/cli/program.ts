import { Command, CommanderError, Help, Option } from 'commander'

/** What a command action returns: the process exit code (0 ok, 1 findings, 2 usage/input). */
export type ExitCode = 0 | 1 | 2

export interface CliIO {
  readonly stdout: NodeJS.WritableStream
  readonly stderr: NodeJS.WritableStream
  readonly stdin: NodeJS.ReadableStream
}

/** A subcommand: adds itself to the program and reports its exit code through `done`. */
export interface CommandModule {
  register(program: Command, io: CliIO, done: (code: ExitCode) => void): void
}

export { Command, CommanderError, Help, Option }

/** Parses a whole-number option value, or throws a usage error naming the option. */
export function intOption(name: string, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value)
    if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new CommanderError(2, 'oec.usage', `${name} takes a whole number from ${min} to ${max}, not "${value}"`)
    }
    return n
  }
}

/** `a, b,,c` → `['a', 'b', 'c']`: the comma-separated id lists of --only and --skip. */
export function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

/**
 * Runs until SIGINT or SIGTERM, then `stop()` (draining in-flight work); a second signal while
 * it drains means "now" (exit 130). Resolves to the signal's name.
 */
export async function runUntilSignal(stop: () => Promise<void>): Promise<string> {
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'))
    process.once('SIGTERM', () => resolve('SIGTERM'))
  })
  const force = () => process.exit(130)
  process.once('SIGINT', force)
  process.once('SIGTERM', force)
  try {
    await stop()
  } finally {
    process.off('SIGINT', force)
    process.off('SIGTERM', force)
  }
  return signal
}

/** A flag under a name it no longer has: hidden from the help, refused with the name it has now. */
export function renamedOption(old: string, now: string): Option {
  return new Option(`${old} <value>`).hideHelp().argParser(() => {
    throw new CommanderError(2, 'oec.usage', `${old} is an old name: use ${now}`)
  })
}
