/** `oec check server`: the conformance runner for server implementations. */
export { runServerChecks, type ServerRunOptions, type ServerRunResult } from './runner.ts'
export { serverCheckCatalog, type CheckInfo as ServerCheckInfo } from './catalog.ts'
export { deriveMutations as deriveServerMutations, type Mutation as ServerMutation } from './mutations.ts'
export { curlCommand } from './curl.ts'
export { type RunnerConfig as ServerRunnerConfig } from './config.ts'
