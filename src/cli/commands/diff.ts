import {
  DIFF_FORMATS,
  diffSpecs,
  failsOn,
  formatDiff,
  formatDiffRuleList,
  loadSeverityFile,
  readSpecPair,
  type DiffFormat,
  type DiffSeverity,
} from '../../diff/index.ts'
import { DEFAULT_SPEC_PATH } from '../../contract/load.ts'
import { InputError } from '../../errors.ts'
import { renderDiffHtml } from '../../report/html/diff.ts'
import { Option, type CommandModule } from '../program.ts'

export const diffCommand: CommandModule = {
  register(program, io, done) {
    program
      .command('diff')
      .description(
        'compare two versions of an OpenAPI 3.0/3.1 document and report breaking changes (operations, schemas, and the toolkit layers: catalog, EIP-712 typed data, limits, WebSocket)',
      )
      .argument('[base]', 'the old spec: a file, or git:<ref>:<path> (read with git show in the current directory)')
      .argument('[head]', 'the new spec: a file, or git:<ref>:<path> (default: --spec, else the shipped spec)')
      .option('--spec <file>', 'the new spec when <head> is not given (default: the shipped spec/openapi.yaml)')
      .option('--list-rules', 'print every rule id with its level, direction and meaning, tab-separated, and exit')
      .addOption(
        new Option('--format <format>', 'output format (html: one self-contained page)').choices([...DIFF_FORMATS, 'html']).default('text'),
      )
      .addOption(
        new Option('--fail-on <severity>', 'exit 1 when a finding at or above this severity exists')
          .choices(['breaking', 'warning', 'info'])
          .default('breaking'),
      )
      .option(
        '--service <word>',
        'service word of the catalog key x-<word>-error-codes (default: the one such key the spec has, else service)',
      )
      .option('--severity <file>', 'lines "rule-id breaking|warning|info|none" that raise, lower or silence rules')
      .addHelpText(
        'after',
        '\nExamples:\n  oec diff git:origin/main:spec/openapi.yaml spec/openapi.yaml\n  oec diff old.yaml new.yaml --format github --fail-on warning\n\nExit codes: 0 nothing at or above --fail-on, 1 findings at or above it, 2 unreadable input.',
      )
      .action(
        async (
          baseArg: string | undefined,
          headArg: string | undefined,
          opts: {
            format: DiffFormat | 'html'
            failOn: DiffSeverity
            spec?: string
            service?: string
            severity?: string
            listRules?: boolean
          },
        ) => {
          if (opts.listRules) {
            io.stdout.write(formatDiffRuleList())
            return done(0)
          }
          if (baseArg === undefined)
            throw new InputError('diff: expected <base> (and <head>, or --spec, or the shipped spec as the new side), or --list-rules')
          if (headArg !== undefined && opts.spec !== undefined)
            throw new InputError('diff: give the new spec as <head> or as --spec, not both')
          const headSpec = headArg ?? opts.spec ?? DEFAULT_SPEC_PATH
          const severity = opts.severity ? loadSeverityFile(opts.severity) : undefined
          const load = opts.service === undefined ? {} : { service: opts.service }
          const [base, head] = readSpecPair(baseArg, headSpec, load)
          const findings = diffSpecs(base.spec, head.spec, severity ? { severity } : {})
          io.stdout.write(
            opts.format === 'html'
              ? renderDiffHtml(findings, {
                  base: { label: baseArg, version: base.spec.version },
                  head: { label: headArg ?? headSpec, version: head.spec.version },
                  failOn: opts.failOn,
                })
              : formatDiff(findings, opts.format, { base: base.spec, head: head.spec, headPath: head.path }),
          )
          done(failsOn(findings, opts.failOn) ? 1 : 0)
        },
      )
  },
}
