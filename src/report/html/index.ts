/** Self-contained HTML reports: conformance runs, coverage and diffs. */
export { renderRunHtml, checkOf, type RunReportMeta } from './run.ts'
export { renderCoverageHtml, type CoverageReportMeta } from './coverage.ts'
export { renderDiffHtml, operationsOf, type DiffReportMeta, type DiffSide } from './diff.ts'
export { esc } from './page.ts'
