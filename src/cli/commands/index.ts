import type { CommandModule } from '../program.ts'
import { checkCommand } from './check.ts'
import { coverageCommand } from './coverage.ts'
import { vectorsCommand } from './vectors.ts'
import { diffCommand } from './diff.ts'
import { generateCommand } from './generate.ts'
import { lintCommand } from './lint.ts'
import { serveCommand } from './serve.ts'
import { signCommand } from './sign.ts'

/** Every subcommand of `oec`, in the order `oec --help` lists them. */
export const commands: readonly CommandModule[] = [
  lintCommand,
  signCommand,
  checkCommand,
  vectorsCommand,
  coverageCommand,
  serveCommand,
  diffCommand,
  generateCommand,
]
