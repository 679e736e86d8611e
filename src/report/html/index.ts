/**
 * Self-contained HTML reports: conformance runs here, and the page kit (page.ts) that the
 * coverage and diff pages use from beside what they show (src/coverage/html.ts, src/diff/html.ts).
 */
export { renderRunHtml, checkOf, type RunReportMeta } from './run.ts'
export { esc } from './page.ts'
