/** `oec explain` as a library: why a request's signature does not verify, in stable cause ids. */
export { explainRequest, type ExplainOptions } from './engine.ts'
export { CAUSE_IDS, DEFAULT_BUDGET, type Cause, type CauseId, type Explanation, type SearchBudget } from './model.ts'
export { explanationJson, explanationText } from './format.ts'
export { parseCurl, shellWords, type CurlRequest } from './curl.ts'
export { decimalSpellings, doubleNonces, nearbyNonces } from './variants.ts'
export { refusalExplainer, type RefusalExplainer, type RefusalContext } from './server-hook.ts'
export { explainNote, refusedRequestNote } from './note.ts'
