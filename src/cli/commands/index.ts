import type { CommandModule } from '../program.ts'
import { checkCommand } from './check.ts'
import { lintCommand } from './lint.ts'

/** Every subcommand of `oec`, in the order `oec --help` lists them. */
export const commands: readonly CommandModule[] = [
  lintCommand,
  checkCommand,
]
