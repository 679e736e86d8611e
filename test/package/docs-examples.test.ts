/**
 * Every shell example of README.md and docs/*.md runs, against one reference server started
 * here (`oec serve --port 0`; the pages' 127.0.0.1:8080 points at it), and exits as its page
 * promises (scripts/docs-examples.ts says how a page promises). Pages run side by side, each
 * page's blocks in order (OEC_DOCS_PARALLEL, default 2: CI is a 2-core box).
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ExampleBlock,
  type ExampleResult,
  exampleBlocks,
  examplesOf,
  makeWorkspace,
  runBlock,
  runBlocks,
  verdict,
  type Workspace,
} from '../../scripts/docs-examples.ts'
import { docPages } from '../../scripts/docs-markdown.ts'
import { type Served, startServe } from '../helpers/cli.ts'

const blocks = docPages().flatMap((p) => exampleBlocks(p.file, p.text))
const examples = examplesOf(blocks)
const key = (e: { file: string; line: number }) => `${e.file}:${e.line}`

let server: Served
let ws: Workspace
const results = new Map<string, ExampleResult>()

beforeAll(async () => {
  server = await startServe(['--port', '0']).ready
  ws = makeWorkspace(Number(new URL(server.url).port))
}, 60_000)

afterAll(() => {
  server?.child.kill('SIGINT')
  if (ws) rmSync(ws.dir, { recursive: true, force: true })
})

describe('the shell examples of the docs', () => {
  beforeAll(async () => {
    for (const r of await runBlocks(blocks, ws, Number(process.env.OEC_DOCS_PARALLEL ?? 2))) results.set(key(r.example), r)
  }, 600_000)

  it('the pages have examples of every kind the runner knows', () => {
    expect(examples.length).toBeGreaterThan(20)
    expect(examples.some((e) => e.expect === 'listens')).toBe(true)
    expect(examples.some((e) => e.expect === 1)).toBe(true)
    expect(examples.some((e) => e.promised !== undefined)).toBe(true)
  })

  for (const ex of examples) {
    const name = `${key(ex)} ${ex.command.slice(0, 90)}`
    if (ex.skip !== undefined) it.skip(`${name} (not run: ${ex.skip})`, () => {})
    else
      it(name, () => {
        const r = results.get(key(ex))
        expect(r, 'no result: the runner never reached it').toBeDefined()
        expect(verdict(r!)).toBeUndefined()
      })
  }
})

describe('the runner catches a broken example', () => {
  const planted = (lines: string[]): ExampleBlock[] =>
    exampleBlocks('docs/planted.md', ['# planted', '', '```sh', ...lines, '```', ''].join('\n'))

  it('a stale flag, a wrong promised exit code, an unlisted symbol, a lowercase status, a failing setup line', async () => {
    const blocks = planted([
      'oec lint spec/openapi.yaml --no-such-flag',
      'npx oec lint broken.yaml                 # no promise, so 0 (but it finds errors)',
      'npx oec lint spec/openapi.yaml           # exits 1 (it exits 0)',
      'export OEC_PRIVATE_KEY=0x…',
      'oec sign --kind PlaceOrder --symbol BTC-20261231-100000-C --side Buy --size 1 --price 100.0 \\',
      '  --tif gtc --route book_only --client-id a1 | curl -s -H content-type:application/json --data-binary @- $BASE/order',
      '# {"status":"ACKED","order_id":"1","client_id":"a1"}',
      'curl -s "$BASE/orders?wallet=$(oec sign --address)&status=open"',
      '# {"orders":[]}',
      'oec coverage --format json > /dev/null',
    ])
    const [block] = blocks
    expect(block).toBeDefined()
    const verdicts = (await runBlock(block!, ws)).map((r) => [r.example.line, verdict(r)?.split('\n')[0]])
    expect(verdicts).toEqual([
      [4, expect.stringMatching(/oec lint spec\/openapi\.yaml --no-such-flag`: exited 2, the page promises 0$/)],
      [5, expect.stringMatching(/exited 1, the page promises 0$/)],
      [6, expect.stringMatching(/exited 0, the page promises 1$/)],
      [8, expect.stringMatching(/answered \{"status":"REJECTED".*the page promises \{"status":"ACKED"/)],
      [11, expect.stringMatching(/answered \{"code":"invalid_field".*the page promises \{"orders":\[\]\}/)],
      [13, undefined],
    ])
  }, 120_000)

  it('a server example that never listens is caught', async () => {
    const [block] = planted(['oec serve --config no-such-config.json'])
    const [r] = await runBlock(block!, ws)
    expect(verdict(r!)).toMatch(/never printed "listening on"/)
  }, 60_000)
})
