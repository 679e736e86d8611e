/**
 * Every `oec` command line a page shows (in a shell block or an inline code span), and every
 * `--flag` of a command page's flag table, must exist in that command's `--help`. The commands
 * and their flags are read from the CLI's own help output, walked from `oec --help` down, so a
 * command or flag another branch adds is known the moment it is merged.
 */
import { oecOutput } from './docs-cli.ts'
import { fencedBlocks, inlineCode, SHELL_LANGS, shellCommands } from './docs-markdown.ts'

/** Command path (`check server`, `vectors generate`) → the flags its `--help` lists. */
export type HelpTree = ReadonlyMap<string, ReadonlySet<string>>

function section(help: string, title: string): string[] {
  const lines = help.split('\n')
  const start = lines.findIndex((l) => l.trim() === `${title}:`)
  if (start < 0) return []
  const end = lines.findIndex((l, i) => i > start && l.trim() !== '' && !/^\s/.test(l))
  return lines.slice(start + 1, end < 0 ? undefined : end)
}

/** Parses one `--help` text: its subcommand names, and every flag it names (options, and flags listed in its epilogue). */
export function parseHelp(help: string): { commands: string[]; flags: Set<string> } {
  const commands = section(help, 'Commands')
    .map((l) => /^ {2}([a-z][\w-]*)/.exec(l)?.[1])
    .filter((c): c is string => c !== undefined)
  return { commands, flags: new Set(help.match(/(?<![\w-])--[a-z][\w-]*/g) ?? []) }
}

export async function helpTree(): Promise<HelpTree> {
  const tree = new Map<string, Set<string>>()
  const walk = async (path: string[]) => {
    const { stdout } = await oecOutput([...path, '--help'])
    const { commands, flags } = parseHelp(stdout)
    tree.set(path.join(' '), flags)
    // `oec help [command]` is commander's own: a command with no flags of its own.
    for (const c of commands) await (c === 'help' ? tree.set([...path, c].join(' '), new Set()) : walk([...path, c]))
  }
  await walk([])
  return tree
}

/** Shell words, quotes kept whole (a quoted `--x` is an argument, not a flag). */
export function shellWords(line: string): string[] {
  return line.match(/'[^']*'|"(?:\\.|[^"\\])*"|\S+/g) ?? []
}

export interface Invocation {
  readonly file: string
  readonly line: number
  /** The command path the words resolve to: '' is `oec` itself, undefined no command at all. */
  readonly command: string | undefined
  readonly flags: readonly string[]
  readonly text: string
}

/** Resolves `oec WORDS...` against the tree: the longest command path, then the flags before a bare `--`. */
export function resolve(words: readonly string[], tree: HelpTree): { command: string | undefined; flags: string[]; rest: string[] } {
  // No command word: the root's own flags (`oec --version`).
  let command: string | undefined = words.length === 0 || words[0]!.startsWith('-') ? '' : undefined
  let i = 0
  for (let n = 1; n <= words.length; n++) {
    const path = words.slice(0, n).join(' ')
    if (tree.has(path) && path !== '') {
      command = path
      i = n
    } else if (words[n - 1]?.startsWith('-')) break
  }
  const end = words.indexOf('--', i)
  const options = words.slice(i, end < 0 ? undefined : end)
  const flags = options.filter((w) => /^--[a-z]/.test(w)).map((w) => w.replace(/=.*$/, ''))
  return { command, flags, rest: end < 0 ? [] : words.slice(end + 1) }
}

/** The `oec ...` parts of a shell line: pipelines, `&&`, `;`, `$(...)` and `VAR=x oec` prefixes split off. */
export function oecSegments(line: string): string[] {
  return line
    .replace(/^\s*\$ /, '')
    .split(/\|\||&&|[|;&]|\$\(|\)/)
    .map((s) => s.trim().replace(/^(?:[A-Z_][A-Z0-9_]*=\S*\s+)+/, ''))
    .filter((s) => /^(npx )?oec(\s|$)/.test(s))
    .map((s) => s.replace(/^npx /, ''))
}

/** The `oec` command a page documents, from its title (`# \`oec check server\`: ...`). */
export function pageCommand(text: string, tree: HelpTree): string | undefined {
  const title = text.split('\n').find((l) => l.startsWith('# '))
  const span = title === undefined ? undefined : inlineCode(title).find((c) => c.startsWith('oec '))
  return span === undefined ? undefined : resolve(shellWords(span).slice(1), tree).command
}

/** Every command line shown on a page and every flag of its flag tables, resolved against the tree. */
export function invocations(file: string, text: string, tree: HelpTree): Invocation[] {
  const found: Invocation[] = []
  const add = (line: number, segment: string) => {
    const words = shellWords(segment).slice(1)
    // `oec serve: listening on ...` is output, and `oec ...` a placeholder: not command lines.
    if (words[0] !== undefined && !/^(-|[a-z][\w-]*(\\?\|[a-z][\w-]*)*$)/.test(words[0])) return
    // `oec check server|client ...` (or `generate\|verify` in a table) stands for each alternative.
    const alt = words.findIndex((w) => !w.startsWith('-') && /^[a-z][\w-]*(\\?\|[a-z][\w-]*)+$/.test(w))
    if (alt >= 0 && alt < 2) {
      for (const w of words[alt]!.split(/\\?\|/)) add(line, ['oec', ...words.slice(0, alt), w, ...words.slice(alt + 1)].join(' '))
      return
    }
    const { command, flags, rest } = resolve(words, tree)
    found.push({ file, line, command, flags, text: segment })
    if (rest[0] === 'oec' || (rest[0] === 'npx' && rest[1] === 'oec')) add(line, rest.join(' '))
  }
  for (const block of fencedBlocks(text).filter((b) => SHELL_LANGS.has(b.lang))) {
    for (const c of shellCommands(block)) for (const s of oecSegments(c.code)) add(c.line, s)
  }
  const page = pageCommand(text, tree)
  let fenced = false
  text.split('\n').forEach((l, i) => {
    if (/^\s*```/.test(l)) fenced = !fenced
    if (fenced) return
    for (const span of inlineCode(l)) {
      if (/^(npx )?oec /.test(span)) add(i + 1, span.replace(/^npx /, ''))
    }
    // A flag table's first column on a command's own page: `--flag ARG`, `--a`, `--b`.
    const first = /^\|([^|]*)\|/.exec(l)?.[1]
    const flags = first === undefined ? [] : inlineCode(first).filter((c) => /^--[a-z]/.test(c))
    if (page !== undefined && flags.length > 0)
      found.push({ file, line: i + 1, command: page, flags: flags.map((f) => shellWords(f)[0]!), text: first!.trim() })
  })
  return found
}

export interface FlagFinding {
  readonly file: string
  readonly line: number
  readonly message: string
}

/** Unknown commands and flags the help of their command does not list. */
export function flagFindings(file: string, text: string, tree: HelpTree): FlagFinding[] {
  const out: FlagFinding[] = []
  for (const inv of invocations(file, text, tree)) {
    if (inv.command === undefined) {
      out.push({ file, line: inv.line, message: `\`${inv.text}\`: no such oec command (oec --help)` })
      continue
    }
    const known = tree.get(inv.command)!
    for (const flag of inv.flags)
      if (!known.has(flag))
        out.push({ file, line: inv.line, message: `${flag} is not an option of \`oec ${inv.command}\` (oec ${inv.command} --help)` })
  }
  return out
}
