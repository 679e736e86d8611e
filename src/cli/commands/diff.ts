import { DIFF_FORMATS, diffSpecs, failsOn, formatDiff, loadSeverityFile, readSpecArg, type DiffFormat, type DiffSeverity } from '../../diff/index.ts'
import { Option, type CommandModule } from '../program.ts'

export const diffCommand: CommandModule = {
  register(program, io, done) {
    program
      .command('diff')
      .description('compare two versions of the spec and report breaking changes (catalog, EIP-712 typed data, operations, schemas, limits)')
      .argument('<base>', 'the old spec: a file, or git:<ref>:<path> (read with git show in the current directory)')
      .argument('<head>', 'the new spec: a file, or git:<ref>:<path>')
      .addOption(new Option('--format <format>', 'output format').choices([...DIFF_FORMATS]).default('text'))
      .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding at or above this severity exists').choices(['breaking', 'warning', 'info']).default('breaking'))
      .option('--service <word>', 'service word of the catalog key x-<word>-error-codes', 'service')
      .option('--severity <file>', 'lines "rule-id breaking|warning|info|none" that raise, lower or silence rules')
      .addHelpText(
        'after',
        '\nExamples:\n  oec diff git:origin/main:spec/openapi.yaml spec/openapi.yaml\n  oec diff old.yaml new.yaml --format github --fail-on warning\n\nExit codes: 0 nothing at or above --fail-on, 1 findings at or above it, 2 unreadable input.',
      )
      .action(async (baseArg: string, headArg: string, opts: { format: DiffFormat; failOn: DiffSeverity; service: string; severity?: string }) => {
        const severity = opts.severity ? loadSeverityFile(opts.severity) : undefined
        const base = readSpecArg(baseArg, { service: opts.service })
        const head = readSpecArg(headArg, { service: opts.service })
        const findings = diffSpecs(base.spec, head.spec, severity ? { severity } : {})
        io.stdout.write(formatDiff(findings, opts.format, { base: base.spec, head: head.spec, headPath: head.path }))
        done(failsOn(findings, opts.failOn) ? 1 : 0)
      })
  },
}
