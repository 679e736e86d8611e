import { resolve } from 'node:path'
import { DEFAULT_VECTORS_DIR } from '../../vectors/paths.ts'
import { addContractOptions, contractFromFlags, type ContractFlags } from '../contract-options.ts'
import type { CommandModule } from '../program.ts'

const NEEDS = ['catalog', 'typedData', 'rateLimits'] as const

/** `oec vectors generate|verify`: the Wycheproof-style vector files and their release check. */
export const vectorsCommand: CommandModule = {
  register(program, io, done) {
    const vectors = program.command('vectors').description('generate or verify the EIP-712 test vector files (one JSON file per family)')
    addContractOptions(vectors.command('generate'))
      .description('write every vector family deterministically (same bytes on every run)')
      .option('--out <dir>', 'directory to write into', DEFAULT_VECTORS_DIR)
      .addHelpText(
        'after',
        '\nExit codes: 0 written, 2 unusable arguments.\nThe JSON Schema (vectors.schema.json) is not written; it lives in the shipped vectors/ directory.',
      )
      .action(async (opts: { out: string } & ContractFlags) => {
        const spec = contractFromFlags(opts, NEEDS, 'oec vectors generate')
        // Loaded on use: the generator pulls in viem's full build, which every other command can skip.
        const { writeVectors } = await import('../../vectors/generate.ts')
        const dir = resolve(opts.out)
        const r = await writeVectors(dir, spec)
        io.stdout.write(`wrote ${r.files.length} files, ${r.cases} cases to ${dir}\n`)
        done(0)
      })
    addContractOptions(vectors.command('verify'))
      .description("re-derive every digest, signature, signer, body and verdict with the toolkit's code; fail on any difference")
      .option('--dir <dir>', 'directory holding the vector files and vectors.schema.json', DEFAULT_VECTORS_DIR)
      .addHelpText('after', '\nExit codes: 0 all vectors agree with the code, 1 differences found, 2 unreadable input.')
      .action(async (opts: { dir: string } & ContractFlags) => {
        const spec = contractFromFlags(opts, NEEDS, 'oec vectors verify')
        const { verifyVectors } = await import('../../vectors/verify.ts')
        const report = await verifyVectors(resolve(opts.dir), spec)
        for (const f of report.findings) io.stdout.write(`${f.file}${f.tcId !== undefined ? ` tcId ${f.tcId}` : ''}: ${f.message}\n`)
        io.stdout.write(
          report.findings.length === 0
            ? `ok: ${report.files} files, ${report.cases} cases agree with the code\n`
            : `${report.findings.length} difference(s) in ${report.files} files, ${report.cases} cases\n`,
        )
        done(report.findings.length === 0 ? 0 : 1)
      })
  },
}
