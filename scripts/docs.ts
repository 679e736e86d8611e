/**
 * `npm run docs`: regenerates the registry tables of docs/ (see docs-tables.ts) and rewrites every
 * case or rule count a page states to what the CLI prints now (see docs-counts.ts).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { countFindings, describeFinding, docFacts, fixCounts } from './docs-counts.ts'
import { docPages, REPO_ROOT } from './docs-markdown.ts'
import { blockStates, DOCS_DIR } from './docs-tables.ts'

for (const { block, current, expected } of await blockStates()) {
  if (expected === undefined) {
    console.log(`docs: ${block.file} ${block.name}: skipped (no markers, or \`oec ${block.args.join(' ')}\` is not available yet)`)
  } else if (expected === current) {
    console.log(`docs: ${block.file} ${block.name}: up to date`)
  } else {
    writeFileSync(join(DOCS_DIR, block.file), expected)
    console.log(`docs: ${block.file} ${block.name}: rewritten`)
  }
}

const facts = await docFacts()
for (const page of docPages()) {
  const findings = countFindings(page.file, page.text, facts)
  if (findings.length === 0) continue
  writeFileSync(join(REPO_ROOT, page.file), fixCounts(page.text, findings))
  for (const f of findings) console.log(`docs: ${describeFinding(f).replace(/; run npm run docs$/, ': rewritten')}`)
}
