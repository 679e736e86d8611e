/**
 * order-entry-conformance: the library behind the `oec` CLI.
 * Each area exports its public surface from its own folder.
 */
export * from './contract/index.ts'
export * from './lint/index.ts'
export * from './diff/index.ts'
export { OecError, InputError } from './errors.ts'
export * from './report/index.ts'
export * from './check/expected-failures.ts'
export * from './vectors/index.ts'
export * from './coverage/index.ts'
export * from './check/client/index.ts'
export * from './signing/index.ts'
export * from './server/index.ts'
export * from './generate/index.ts'
export * from './check/server/index.ts'
export * from './explain/index.ts'
export * from './proxy/index.ts'
