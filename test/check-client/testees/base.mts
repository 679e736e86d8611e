// Shared loop of the deliberately wrong testees: the toolkit's own protocol answerer with one
// bug injected, either into the request before it is answered or into the answer line.
import { createInterface } from 'node:readline'
import { parse, stringify } from 'lossless-json'
import { answerLine } from '../../../src/signing/index.ts'
import { signing } from '../../helpers/shipped.ts'

export interface Bug {
  /** Rewrites a parsed request (lossless numbers) before the correct signer sees it. */
  request?(req: Record<string, any>): void
  /** Rewrites the raw request line (e.g. through JSON.parse, losing precision). */
  line?(line: string): string
  /** Rewrites the answer line. */
  answer?(answer: string, req: Record<string, any>): string
}

export async function serve(bug: Bug): Promise<void> {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity })
  for await (let line of rl) {
    if (bug.line) line = bug.line(line)
    let req: Record<string, any> = {}
    try {
      req = parse(line) as Record<string, any>
      if (bug.request) {
        bug.request(req)
        line = stringify(req) ?? line
      }
    } catch {
      /* the answerer reports broken lines itself */
    }
    let out = await answerLine(signing, line)
    if (out === undefined) continue
    if (bug.answer) out = bug.answer(out, req)
    process.stdout.write(out + '\n')
  }
}
