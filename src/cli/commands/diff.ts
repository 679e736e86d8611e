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
import { CommanderError, Option, type CommandModule } from '../program.ts'
import { reportOut } from '../report-out.ts'
import { failOnLevel } from '../../diff/policy.ts'
import { unresolvedRefs } from '../../diff/refs.ts'
import { SEVERITY_RANK, type DiffFinding } from '../../diff/model.ts'
import { annotationPointer, type FormatContext } from '../../diff/format.ts'

function failOnOption(value: string): DiffSeverity {
  const level = failOnLevel(value)
  if (!level) throw new CommanderError(2, 'oec.usage', `--fail-on takes breaking, warning or info (or ERR, WARN, INFO), not "${value}"`)
  return level
}

/**
 * JUnit XML in the fields a diff has: the suite names the base and head files, each finding is one
 * test case (class name its rule id, its file the head spec, properties its severity, pointer and
 * head line); a finding at or above --fail-on is a failure, one below carries its text as output.
 * The builder (and the HTML page) load only for their format: they cost every other diff's
 * start-up about 70 ms.
 */
async function junitText(findings: readonly DiffFinding[], failOn: DiffSeverity, ctx: FormatContext, basePath: string): Promise<string> {
  const { junitBuilder } = await import('../../report/index.ts')
  const builder = junitBuilder().newBuilder()
  const suite = builder.testSuite().name('oec diff').timestamp(new Date().toISOString()).time(0)
  suite.property('base', basePath)
  suite.property('head', ctx.headPath)
  suite.property('fail-on', failOn)
  for (const f of findings) {
    const line = ctx.head.lineOf(annotationPointer(f, ctx.head))
    const tc = suite
      .testCase()
      .className(f.id)
      .name(`${f.id} ${f.pointer || '/'}`)
      .file(ctx.headPath)
      .time(0)
    tc.property('severity', f.severity)
    tc.property('pointer', f.pointer || '/')
    tc.property('line', String(line))
    if (SEVERITY_RANK[f.severity] >= SEVERITY_RANK[failOn]) tc.failure(`${f.severity}: ${f.message}`, f.severity)
    else tc.standardOutput(`${f.severity}: ${f.message}`)
  }
  return `${builder.build()}
`
}

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
        new Option('--format <format>', 'output format (html: one self-contained page; junit: one test case per finding)')
          .choices([...DIFF_FORMATS, 'html', 'junit'])
          .default('text'),
      )
      .option(
        '--fail-on <severity>',
        "exit 1 when a finding at or above this severity exists: breaking, warning, info (or oasdiff's ERR, WARN, INFO)",
        failOnOption,
        'breaking' satisfies DiffSeverity,
      )
      .option('--out <file>', 'write the report to a file (it appears only whole) and print a one-line summary')
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
            format: DiffFormat | 'html' | 'junit'
            failOn: DiffSeverity
            out?: string
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
          const report = reportOut(opts.out, io.stdout)
          const [base, head] = readSpecPair(baseArg, headSpec, load)
          // A $ref that points nowhere hides whatever it stood for: refuse the input rather than report a diff without it.
          for (const side of [base, head]) {
            const broken = unresolvedRefs(side.spec.doc)[0]
            if (broken) throw new InputError(`${side.path}:${side.spec.lineOf(broken.pointer)}: $ref ${broken.ref} does not resolve`)
          }
          const findings = diffSpecs(base.spec, head.spec, severity ? { severity } : {})
          const fails = failsOn(findings, opts.failOn)
          report.stream.write(
            opts.format === 'junit'
              ? await junitText(findings, opts.failOn, { base: base.spec, head: head.spec, headPath: head.path }, base.path)
              : opts.format === 'html'
                ? (await import('../../diff/html.ts')).renderDiffHtml(findings, {
                    base: { label: baseArg, version: base.spec.version },
                    head: { label: headArg ?? headSpec, version: head.spec.version },
                    failOn: opts.failOn,
                  })
                : formatDiff(findings, opts.format, { base: base.spec, head: head.spec, headPath: head.path }),
          )
          report.commit()
          if (opts.out !== undefined) {
            const count = (s: DiffSeverity) => findings.filter((f) => f.severity === s).length
            io.stderr.write(
              `oec diff: ${fails ? 'FAILED' : 'PASSED'} (--fail-on ${opts.failOn}): ${count('breaking')} breaking, ${count('warning')} warning(s), ${count('info')} info\nwrote ${opts.out}\n`,
            )
          }
          done(fails ? 1 : 0)
        },
      )
  },
}
