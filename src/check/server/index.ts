/** `oec check server`: the conformance runner for server implementations. */
export { runServerChecks, type ServerRunOptions, type ServerRunResult } from './runner.ts'
export {
  formatServerCatalog,
  serverCheckCatalog,
  type CatalogFormat as ServerCatalogFormat,
  type CheckInfo as ServerCheckInfo,
} from './catalog.ts'
export type { CheckId as ServerCheckId, CheckSelector as ServerCheckSelector } from './registry.ts'
export { deriveMutations as deriveServerMutations, type Mutation as ServerMutation } from './mutations.ts'
export { curlCommand } from '../target/curl.ts'
export type { RunnerConfig as ServerRunnerConfig } from '../target/config.ts'
