/**
 * order-entry-conformance: the library behind the `oec` CLI.
 * Each area exports its public surface from its own folder.
 */
export * from './spec/index.ts'
export * from './lint/index.ts'
export { OecError, InputError } from './errors.ts'
