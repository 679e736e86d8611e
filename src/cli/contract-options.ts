/**
 * `--spec FILE` and `--service WORD`, the same on every command: which contract the command
 * runs on. The shipped spec is the default; a command names the layers it needs, and a spec
 * that lacks one is refused in one line before anything runs.
 */
import { contractFor, type Contract, type LayerName } from '../contract/load.ts'
import type { Command } from './program.ts'

export interface ContractFlags {
  spec?: string
  service?: string
}

export function addContractOptions(cmd: Command): Command {
  return cmd
    .option('--spec <file>', 'OpenAPI document to run on (default: the shipped spec/openapi.yaml)')
    .option('--service <word>', 'service word of the error-code catalog key x-<word>-error-codes (default: service)')
}

/** The contract the flags name, checked for `needs`; `forWhat` names the command in the error. */
export function contractFromFlags<N extends LayerName>(flags: ContractFlags, needs: readonly N[], forWhat: string): Contract<N> {
  return contractFor(flags.spec, needs, forWhat, flags.service !== undefined ? { service: flags.service } : {})
}
