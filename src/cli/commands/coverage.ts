import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { InputError } from '../../errors.ts'
import { renderCoverageHtml } from '../../coverage/html.ts'
import { buildCoverage, coverageExitCode, coverageJson, formatCoverageText } from '../../coverage/index.ts'
import { DEFAULT_VECTORS_DIR } from '../../vectors/paths.ts'
import { addContractOptions, contractFromFlags, type ContractFlags } from '../contract-options.ts'
import { Option, type Command, type CommandModule } from '../program.ts'

const FORMATS = ['text', 'json', 'html'] as const
type Format = (typeof FORMATS)[number]

export const coverageCommand: CommandModule = {
  register(program, io, done) {
    addContractOptions(program.command('coverage'))
      .description('print the rule × check matrix (vector cases, server checks, spec checks); fail when a stated rule has no check')
      .option('--vectors <dir>', `vector directory (default: ${DEFAULT_VECTORS_DIR}; with --spec, the vectors generated from that spec)`)
      .option('--rules <file>', 'rule catalog (default: rules.yaml beside the spec)')
      .option('-v, --verbose', 'list the checks behind each rule')
      .addOption(new Option('--format <format>', 'output format').choices([...FORMATS]).default('text'))
      .addOption(
        new Option(
          '--reporter <name>',
          'same as --format (the name the check commands use), e.g. --reporter html --out coverage.html',
        ).choices([...FORMATS]),
      )
      .option('--out <file>', 'write the output to a file instead of stdout')
      .addHelpText(
        'after',
        '\nExit codes: 0 every stated rule has a check, 1 a stated rule has none (or a check names an unknown rule), 2 unreadable input.',
      )
      .action(
        async (
          opts: ContractFlags & { vectors?: string; rules?: string; verbose?: boolean; format: Format; reporter?: Format; out?: string },
          cmd: Command,
        ) => {
          if (opts.reporter && cmd.getOptionValueSource('format') === 'cli' && opts.reporter !== opts.format)
            throw new InputError('coverage: --reporter and --format name the same thing; give one')
          const format = opts.reporter ?? opts.format
          const spec =
            opts.spec !== undefined || opts.service !== undefined
              ? contractFromFlags(opts, ['catalog', 'typedData', 'rateLimits', 'websocket'], 'oec coverage')
              : undefined
          const report = await buildCoverage({
            vectorsDir: opts.vectors !== undefined || !spec ? resolve(opts.vectors ?? DEFAULT_VECTORS_DIR) : undefined,
            rulesPath: opts.rules ? resolve(opts.rules) : undefined,
            spec,
          })
          const text =
            format === 'json'
              ? JSON.stringify(coverageJson(report), null, 2) + '\n'
              : format === 'html'
                ? renderCoverageHtml(report, {
                    rulesFile: opts.rules ?? (spec ? `rules.yaml beside ${spec.file}` : 'spec/rules.yaml (shipped)'),
                    vectorsDir: opts.vectors ?? (spec ? `generated from ${spec.file}` : DEFAULT_VECTORS_DIR),
                  })
                : formatCoverageText(report, { verbose: opts.verbose === true })
          if (opts.out) writeFileSync(opts.out, text)
          else io.stdout.write(text)
          done(coverageExitCode(report))
        },
      )
  },
}
