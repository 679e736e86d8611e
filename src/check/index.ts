/** The conformance runners (`order-entry-conformance/check`): server checks, the client testee runner, expected failures. */
export * from './server/index.ts'
export * from './client/index.ts'
export * from './expected-failures.ts'
export { PreflightError } from './preflight-error.ts'
