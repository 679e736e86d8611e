/**
 * The pages the docs tests read (README.md and docs/*.md) and the few Markdown shapes they need:
 * fenced blocks, inline code spans, and the regions `npm run docs` generates. Line-based on
 * purpose: every finding names a line a reader can open.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url))

export interface DocPage {
  /** Path from the repository root, e.g. `docs/serve.md`. */
  readonly file: string
  readonly text: string
}

export function docPages(root = REPO_ROOT): DocPage[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`)
  return ['README.md', ...docs].map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }))
}

export interface FencedBlock {
  readonly lang: string
  /** 1-based line number of the block's first content line. */
  readonly line: number
  readonly lines: readonly string[]
}

export function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = []
  const lines = text.split('\n')
  let open: { lang: string; line: number; lines: string[] } | undefined
  lines.forEach((l, i) => {
    const fence = /^\s*```(\S*)/.exec(l)
    if (fence && open === undefined) open = { lang: fence[1] ?? '', line: i + 2, lines: [] }
    else if (fence && open !== undefined) {
      blocks.push(open)
      open = undefined
    } else open?.lines.push(l)
  })
  return blocks
}

/** The shell languages whose blocks hold commands a reader would type. */
export const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console'])

/** 1-based line numbers inside fenced blocks or `<!-- generated:NAME -->` regions (not prose a person wrote). */
export function linesInside(text: string, what: 'fences' | 'generated'): Set<number> {
  const inside = new Set<number>()
  let depth = false
  text.split('\n').forEach((l, i) => {
    const toggles = what === 'fences' ? /^\s*```/.test(l) : /<!-- \/?generated:[\w-]+ -->/.test(l)
    if (toggles) depth = what === 'fences' ? !depth : !/<!-- \//.test(l)
    else if (depth) inside.add(i + 1)
  })
  return inside
}

/** The `code` spans of one line of prose or of a table. */
export function inlineCode(line: string): string[] {
  return [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)
}

/** Splits a shell line at its comment: ` # ...` outside quotes. */
export function splitComment(line: string): { code: string; comment: string } {
  let quote: string | undefined
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quote !== undefined) {
      if (c === quote) quote = undefined
    } else if (c === "'" || c === '"') quote = c
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!)))
      return { code: line.slice(0, i).trimEnd(), comment: line.slice(i + 1).trim() }
  }
  return { code: line.trimEnd(), comment: '' }
}

export interface ShellCommand {
  /** 1-based line of the page where the command starts. */
  readonly line: number
  /** The command, `\` continuations joined; '' for a line that is only a comment. */
  readonly code: string
  readonly comment: string
}

/** The logical lines of a shell block; in a `console` block only the `$ ` lines (the rest is output). */
export function shellCommands(block: FencedBlock): ShellCommand[] {
  const out: ShellCommand[] = []
  let pending: { line: number; text: string } | undefined
  block.lines.forEach((raw, i) => {
    const line = block.lang === 'console' ? (raw.startsWith('$ ') ? raw.slice(2) : '') : raw
    if (pending) pending.text += ` ${line.trim()}`
    else pending = { line: block.line + i, text: line }
    if (pending.text.endsWith('\\')) {
      pending.text = pending.text.slice(0, -1).trimEnd()
      return
    }
    const { code, comment } = splitComment(pending.text)
    if (code !== '' || comment !== '') out.push({ line: pending.line, code: code.trim(), comment })
    pending = undefined
  })
  return out
}
