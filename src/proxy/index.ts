/** `oec proxy` as a library: a transparent reverse proxy that checks every exchange against the contract. */
export { startProxy, type ProxyOptions, type RunningProxy } from './proxy.ts'
export type { ProxiedExchange, Party, Violation } from './model.ts'
/** @deprecated The former name of `ProxiedExchange`, kept so that importers do not break; use `ProxiedExchange`. */
export type { ProxiedExchange as Exchange } from './model.ts'
export { violationLine } from './report.ts'
