import { resolve } from 'node:path'
import { buildCoverage, coverageExitCode, coverageJson, formatCoverageText } from '../../coverage/index.ts'
import { DEFAULT_VECTORS_DIR } from '../../vectors/paths.ts'
import { Option, type CommandModule } from '../program.ts'

export const coverageCommand: CommandModule = {
  register(program, io, done) {
    program
      .command('coverage')
      .description('print the rule × check matrix (vector cases, server checks, spec checks); fail when a stated rule has no check')
      .option('--vectors <dir>', 'vector directory', DEFAULT_VECTORS_DIR)
      .option('--rules <file>', 'rule catalog (default: the shipped spec/rules.yaml)')
      .option('-v, --verbose', 'list the checks behind each rule')
      .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
      .addHelpText('after', '\nExit codes: 0 every stated rule has a check, 1 a stated rule has none (or a check names an unknown rule), 2 unreadable input.')
      .action(async (opts: { vectors: string; rules?: string; verbose?: boolean; format: 'text' | 'json' }) => {
        const report = await buildCoverage({ vectorsDir: resolve(opts.vectors), ...(opts.rules ? { rulesPath: resolve(opts.rules) } : {}) })
        io.stdout.write(opts.format === 'json' ? JSON.stringify(coverageJson(report), null, 2) + '\n' : formatCoverageText(report, { verbose: opts.verbose === true }))
        done(coverageExitCode(report))
      })
  },
}
