import type { CommandModule } from '../program.ts'
import { checkServerCommand } from './check-server.ts'
import { checkClientCommand } from './check-client.ts'

/**
 * `oec check client|server`: the conformance runners. Each runner registers its own
 * subcommand on the `check` group (see src/check/client and src/check/server).
 */
export const checkCommand: CommandModule = {
  register(program, io, done) {
    const check = program.command('check').description('run the conformance suite against a client (testee program) or a server')
    for (const sub of checkSubcommands) sub.register(check, io, done)
  },
}

/** The runners' subcommands (`check client`, `check server`), each from its own module. */
const checkSubcommands: CommandModule[] = [checkClientCommand, checkServerCommand]
