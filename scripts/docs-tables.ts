/**
 * The rule and check tables of docs/ are generated from the registries, through the same JSON
 * the CLI prints (`oec lint --list-rules --format json`, `oec check server --list --format json`,
 * `oec diff --list-rules --format json`), between `<!-- generated:NAME -->` and
 * `<!-- /generated:NAME -->` markers. `npm run docs` rewrites them; test/package/docs.test.ts
 * fails when a page differs from what the registries give.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { oecOutput } from './docs-cli.ts'
import { shippedContract } from '../src/contract/index.ts'
import type { SignedMessage } from '../src/contract/model.ts'

export const DOCS_DIR = fileURLToPath(new URL('../docs/', import.meta.url))

export interface GeneratedBlock {
  readonly file: string
  readonly name: string
  /** The `oec` command that lists the registry; empty when `data` reads the spec itself. */
  readonly args: readonly string[]
  /** The listed data straight from the shipped spec, for what no command prints. */
  readonly data?: () => unknown
  /** How the command prints its list: JSON, or tab-separated lines. Default JSON. */
  readonly output?: 'json' | 'tsv'
  render(list: unknown): string
}

/** Runs `oec ARGS` in process; undefined when the command does not know these flags yet. */
async function oecList(args: readonly string[], output: 'json' | 'tsv'): Promise<unknown> {
  const { code, stdout: out } = await oecOutput(args)
  if (code !== 0) return undefined
  if (output === 'tsv')
    return out
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => l.split('\t'))
  return JSON.parse(out) as unknown
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')
const code = (s: string) => `\`${s}\``

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join(
    '\n',
  )
}

interface LintRuleJson {
  id: string
  level: string
  needs: string | null
  doc: string
}
interface ServerCheckJson {
  id: string
  title: string
  level: string
  slow: boolean
  rules: string[]
}
export const BLOCKS: readonly GeneratedBlock[] = [
  {
    file: 'lint.md',
    name: 'lint-rules',
    args: ['lint', '--list-rules', '--format', 'json'],
    render: (json) =>
      table(
        ['rule', 'level', 'needs layer', 'what it checks'],
        (json as LintRuleJson[]).map((r) => [code(r.id), r.level, r.needs ?? 'any OpenAPI document', r.doc]),
      ),
  },
  {
    file: 'check-server.md',
    name: 'server-checks',
    args: ['check', 'server', '--list', '--format', 'json'],
    render: (json) =>
      table(
        ['check', 'level', 'slow', 'rules', 'what it checks'],
        (json as { checks: ServerCheckJson[] }).checks.map((c) => [code(c.id), c.level, c.slow ? 'slow' : '', c.rules.join(', '), c.title]),
      ),
  },
  {
    file: 'diff-rules.md',
    name: 'diff-rules',
    args: ['diff', '--list-rules'],
    output: 'tsv',
    render: (rows) =>
      table(
        ['rule', 'default level', 'direction', 'what it reports'],
        (rows as string[][]).map(([id = '', level = '', direction = '', meaning = '']) => [code(id), level, direction, meaning]),
      ),
  },
  {
    file: 'testee-protocol.md',
    name: 'signed-messages',
    args: [],
    data: () => shippedContract().typedData.messages,
    render: (messages) => signedMessages(messages as Readonly<Record<string, SignedMessage>>),
  },
]

/** Each signed message of the spec: its EIP-712 struct in signing order, and the JSON body that carries it. */
function signedMessages(messages: Readonly<Record<string, SignedMessage>>): string {
  const rows = Object.values(messages).map((m) => {
    const struct = `${m.primaryType}(${m.fields.map((f) => `${f.type} ${f.name}`).join(',')})`
    const body =
      m.domain === 'options'
        ? `{${[...m.fields.map((f) => `"${f.body}"`), '"signature"'].join(', ')}}`
        : "the venue's `{action, nonce, signature: {r, s, v}, vaultAddress?, expiresAfter?}`"
    const renamed = m.fields.filter((f) => f.body !== f.name).map((f) => `${code(f.name)} is sent as ${code(f.body)}`)
    return [code(m.id), m.domain, code(struct), body, renamed.join('; ')]
  })
  return table(['message', 'domain', 'EIP-712 struct, fields in signing order', 'request body keys', 'renamed on the wire'], rows)
}

const markers = (name: string) => [`<!-- generated:${name} -->`, `<!-- /generated:${name} -->`] as const

export interface BlockState {
  readonly block: GeneratedBlock
  /** The page as it is. */
  readonly current: string
  /** The page with the block regenerated; undefined when the page has no markers or the CLI cannot list this registry yet. */
  readonly expected: string | undefined
}

export async function blockStates(dir = DOCS_DIR): Promise<BlockState[]> {
  const states: BlockState[] = []
  for (const block of BLOCKS) {
    const current = readFileSync(join(dir, block.file), 'utf8')
    const [open, close] = markers(block.name)
    const start = current.indexOf(open)
    const end = current.indexOf(close)
    const json = start >= 0 && end > start ? (block.data ? block.data() : await oecList(block.args, block.output ?? 'json')) : undefined
    const source = block.data ? 'spec/openapi.yaml' : `\`oec ${block.args.join(' ')}\``
    const expected =
      json === undefined
        ? undefined
        : `${current.slice(0, start + open.length)}\n<!-- npm run docs: from ${source} -->\n\n${block.render(json)}\n\n${current.slice(end)}`
    states.push({ block, current, expected })
  }
  return states
}
