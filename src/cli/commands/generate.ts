import { checkGenerated, generateFiles, writeGenerated } from '../../generate/index.ts'
import { addContractOptions, type ContractFlags } from '../contract-options.ts'
import type { CommandModule } from '../program.ts'

interface GenerateFlags extends ContractFlags {
  out: string
  check?: boolean
  domainName?: string
}

export const generateCommand: CommandModule = {
  register(program, io, done) {
    addContractOptions(program.command('generate'))
      .description(
        'emit TypeScript from the spec: types, and the error codes, EIP-712 typed data and limits of the layers it has (or --check them for drift)',
      )
      .requiredOption('--out <dir>', 'directory of the generated files (types.ts, index.ts and one file per layer the spec has)')
      .option('--check', 'regenerate in memory and compare with --out; exit 1 with a unified diff when they differ')
      .option('--domain-name <name>', "name of the options signing domain (default: the spec's)")
      .addHelpText(
        'after',
        '\nExit codes: 0 written (or, with --check, identical), 1 --check found drift, 2 unreadable or unsupported spec.\n' +
          'Examples:\n  oec generate --out src/generated\n  oec generate --spec api/openapi.yaml --service acme --out src/api --check',
      )
      .action(async (flags: GenerateFlags) => {
        const files = await generateFiles({ spec: flags.spec, service: flags.service, domainName: flags.domainName })
        if (flags.check) {
          const report = checkGenerated(flags.out, files)
          if (report.ok) {
            io.stdout.write(`oec generate --check: ${files.length} files in ${flags.out} match the spec\n`)
            done(0)
            return
          }
          io.stdout.write(report.patch)
          const what = [
            ...report.changed.map((f) => `${f} differs`),
            ...report.missing.map((f) => `${f} is missing`),
            ...report.extra.map((f) => `${f} is no longer generated`),
          ]
          io.stderr.write(`oec generate --check: ${flags.out} is out of date (${what.join(', ')}); run oec generate without --check\n`)
          done(1)
          return
        }
        const report = writeGenerated(flags.out, files)
        const parts = [
          `${report.written.length} written`,
          `${report.unchanged.length} unchanged`,
          ...(report.removed.length ? [`${report.removed.length} stale removed`] : []),
        ]
        io.stdout.write(`oec generate: ${flags.out}: ${parts.join(', ')}\n`)
        done(0)
      })
  },
}
