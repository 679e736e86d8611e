export { runClientCheck, clientCases, requestLine, type ClientRun, type ClientRunOptions } from './runner.ts'
export { bodyDifferences, signProblems, verifyProblems } from './compare.ts'
export { runRequests, resolveCommand, type Answer, type PendingRequest, type TesteeOptions } from './testee.ts'
export { runClientHttpCheck, scenarioKey, type HttpRunOptions } from './http/runner.ts'
export { CLIENT_CHECKS, type ClientCheck, type CheckName } from './http/checks/index.ts'
export { scenarios as clientHttpScenarios, type Scenario, type ScriptedAnswer } from './http/scenarios.ts'
/** @deprecated The former name of `ScriptedAnswer`, kept so that importers do not break; use `ScriptedAnswer`. */
export type { ScriptedAnswer as Step } from './http/scenarios.ts'
export { ENV as CLIENT_ENV, parseAnswerLine, type Task, type TaskAnswer } from './http/protocol.ts'
