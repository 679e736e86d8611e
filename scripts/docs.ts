/** `npm run docs`: regenerates the registry tables of docs/ (see docs-tables.ts). */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
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
