/**
 * The CLI entry (`main`) run in process: the same parsing, commands and exit codes as the
 * binary, without a process start per case (each start loads tsx and costs seconds on a busy box).
 */
import { oecOutput } from '../../scripts/docs-cli.ts'
import type { RunResult } from './cli.ts'

export const runMain = (args: readonly string[], input = ''): Promise<RunResult> => oecOutput(args, input)
