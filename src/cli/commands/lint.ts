import { DEFAULT_SPEC_PATH } from '../../contract/load.ts'
import { formatLintText, formatRuleList, lintFile, ruleListJson } from '../../lint/index.ts'
import { addContractOptions, type ContractFlags } from '../contract-options.ts'
import { CommanderError, Option, type CommandModule } from '../program.ts'

interface LintFlags extends ContractFlags {
  format: 'text' | 'json'
  listRules?: boolean
}

export const lintCommand: CommandModule = {
  register(program, io, done) {
    addContractOptions(program.command('lint'))
      .description(
        'validate an OpenAPI spec and check the toolkit rules of the layers it has (catalog, EIP-712 mapping, rate-limit headers, x-assumed)',
      )
      .argument('[spec]', 'the spec file, or give it with --spec (default: the shipped spec/openapi.yaml)')
      .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
      .option('--list-rules', 'print every lint rule (id, level, the layer it needs, what it checks) and exit')
      .addHelpText(
        'after',
        '\nExit codes: 0 no error-level finding, 1 findings, 2 unreadable input or not OpenAPI 3.0/3.1.\n' +
          'Text lines read "file:line rule message". A spec without a toolkit extension is linted too:\n' +
          'one info line names the absent layers, whose rules are skipped.',
      )
      .action(async (positional: string | undefined, opts: LintFlags) => {
        if (positional !== undefined && opts.spec !== undefined) {
          throw new CommanderError(
            2,
            'oec.usage',
            `lint: give the spec once, as an argument (${positional}) or with --spec (${opts.spec}), not both`,
          )
        }
        if (opts.listRules) {
          io.stdout.write(
            opts.format === 'json' ? JSON.stringify(ruleListJson(opts.service), null, 2) + '\n' : formatRuleList(opts.service),
          )
          done(0)
          return
        }
        // Not contractFromFlags: lint reports a layer it cannot read instead of refusing the spec.
        const report = await lintFile(
          positional ?? opts.spec ?? DEFAULT_SPEC_PATH,
          opts.service !== undefined ? { service: opts.service } : {},
        )
        io.stdout.write(opts.format === 'json' ? JSON.stringify(report, null, 2) + '\n' : formatLintText(report))
        done(report.errors > 0 ? 1 : 0)
      })
  },
}
