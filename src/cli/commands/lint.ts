import { DEFAULT_SPEC_PATH } from '../../contract/load.ts'
import { formatLintText, formatRuleList, lintFile, parseRuleFlags, ruleListJson } from '../../lint/index.ts'
import { addContractOptions, type ContractFlags } from '../contract-options.ts'
import { CommanderError, Option, type CommandModule } from '../program.ts'

interface LintFlags extends ContractFlags {
  format: 'text' | 'json'
  listRules?: boolean
  rule: string[]
  allowRemote?: boolean
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
      .option(
        '--rule <id=level>',
        "set a rule's level: off, warn or error (repeatable), e.g. --rule request-additional-properties=off",
        (v: string, all: string[]) => [...all, v],
        [] as string[],
      )
      .option('--allow-remote', 'fetch http(s) $refs to check that they resolve (default: no network access)')
      .addHelpText(
        'after',
        '\nExit codes: 0 no error-level finding, 1 findings, 2 unreadable input or not OpenAPI 3.0/3.1.\n' +
          'Text lines read "file:line rule message". A spec without a toolkit extension is linted too:\n' +
          "one info line names the absent layers, whose rules are skipped, and the toolkit's house rules\n" +
          '(request-additional-properties, assumed-why-missing) are warnings unless --rule says otherwise.\n' +
          'A $ref inside example, examples.*.value, default, const, enum or an x- value is data, never followed.',
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
        const ruleLevels = parseRuleFlags(opts.rule)
        // Not contractFromFlags: lint reports a layer it cannot read instead of refusing the spec.
        const report = await lintFile(positional ?? opts.spec ?? DEFAULT_SPEC_PATH, {
          service: opts.service,
          ruleLevels: opts.rule.length > 0 ? ruleLevels : undefined,
          allowRemote: opts.allowRemote,
        })
        io.stdout.write(opts.format === 'json' ? JSON.stringify(report, null, 2) + '\n' : formatLintText(report))
        done(report.errors > 0 ? 1 : 0)
      })
  },
}
