/** `oec proxy` as a library: a transparent reverse proxy that checks every exchange against the contract. */
export { startProxy, type ProxyOptions, type RunningProxy } from './proxy.ts'
export type { ProxiedExchange, Party, Violation } from './model.ts'
export { violationLine } from './report.ts'
