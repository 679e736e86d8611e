// Bug: answers requests in pairs, second first.
import { createInterface } from 'node:readline'
import { answerLine } from '../../../src/signing/index.ts'
import { signing } from '../../helpers/shipped.ts'
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity })
let held: string | undefined
for await (const line of rl) {
  const out = await answerLine(signing, line)
  if (out === undefined) continue
  if (held === undefined) held = out
  else {
    process.stdout.write(out + '\n' + held + '\n')
    held = undefined
  }
}
if (held !== undefined) process.stdout.write(held + '\n')
