export { runClientCheck, clientCases, requestLine, type ClientRun, type ClientRunOptions } from './runner.ts'
export { bodyDifferences, signProblems, verifyProblems } from './compare.ts'
export { runRequests, resolveCommand, type Answer, type PendingRequest, type TesteeOptions } from './testee.ts'
