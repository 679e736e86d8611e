import { formatLintText, lintFile } from '../../lint/index.ts'
import { DEFAULT_SPEC_PATH } from '../../contract/load.ts'
import { Option, type CommandModule } from '../program.ts'

export const lintCommand: CommandModule = {
  register(program, io, done) {
    program
      .command('lint')
      .description('validate an OpenAPI spec and check the toolkit rules (catalog, EIP-712 mapping, rate-limit headers, x-assumed)')
      .argument('[spec]', 'the spec file (default: the shipped spec/openapi.yaml)')
      .option('--service <word>', 'service word of the catalog key x-<word>-error-codes', 'service')
      .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
      .addHelpText('after', '\nExit codes: 0 no error-level finding, 1 findings, 2 unreadable input.\nText lines read "file:line rule message".')
      .action(async (spec: string | undefined, opts: { service: string; format: 'text' | 'json' }) => {
        const report = await lintFile(spec ?? DEFAULT_SPEC_PATH, { service: opts.service })
        io.stdout.write(opts.format === 'json' ? JSON.stringify(report, null, 2) + '\n' : formatLintText(report))
        done(report.errors > 0 ? 1 : 0)
      })
  },
}
