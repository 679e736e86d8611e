/**
 * A curl command line, as a client team pastes it from a log: its method, URL path and body.
 * Shell words are split the way a POSIX shell splits them (quotes, backslashes, line
 * continuations); only the options that shape the request matter, the rest are skipped.
 */
import { InputError } from '../errors.ts'

export interface CurlRequest {
  readonly method?: string | undefined
  readonly path?: string | undefined
  readonly body: string
}

/** POSIX-shell word splitting of one command line (no expansion: `$` stays literal). */
export function shellWords(line: string): string[] {
  const words: string[] = []
  let cur = ''
  let inWord = false
  let i = 0
  while (i < line.length) {
    const c = line[i]!
    if (c === '\\' && line[i + 1] === '\n') {
      i += 2
      continue
    }
    if (/\s/.test(c)) {
      if (inWord) words.push(cur)
      cur = ''
      inWord = false
      i++
      continue
    }
    inWord = true
    if (c === "'") {
      const end = line.indexOf("'", i + 1)
      if (end < 0) throw new InputError('--curl: unterminated single quote')
      cur += line.slice(i + 1, end)
      i = end + 1
    } else if (c === '"') {
      i++
      while (i < line.length && line[i] !== '"') {
        if (line[i] === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1]!)) {
          if (line[i + 1] !== '\n') cur += line[i + 1]
          i += 2
        } else cur += line[i++]
      }
      if (i >= line.length) throw new InputError('--curl: unterminated double quote')
      i++
    } else if (c === '$' && line[i + 1] === "'") {
      // $'...' (bash ANSI-C quoting), as browsers' "copy as curl" writes it.
      let j = i + 2
      while (j < line.length && line[j] !== "'") {
        if (line[j] === '\\' && j + 1 < line.length) {
          const n = line[j + 1]!
          cur += n === 'n' ? '\n' : n === 't' ? '\t' : n === 'r' ? '\r' : n
          j += 2
        } else cur += line[j++]
      }
      if (j >= line.length) throw new InputError("--curl: unterminated $'...' quote")
      i = j + 1
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[i + 1]
      i += 2
    } else {
      cur += c
      i++
    }
  }
  if (inWord) words.push(cur)
  return words
}

const DATA_FLAGS = new Set(['-d', '--data', '--data-binary', '--data-raw', '--data-ascii'])
const WITH_VALUE = new Set([
  '-H',
  '--header',
  '-X',
  '--request',
  '-u',
  '--user',
  '-o',
  '--output',
  '-A',
  '--user-agent',
  '-e',
  '--referer',
  '-b',
  '--cookie',
  '-m',
  '--max-time',
  '--connect-timeout',
  '-w',
  '--write-out',
  '--url',
])

/**
 * The request a curl command line sends. `readFile` resolves `@file` bodies (`-` for stdin is
 * not supported on a pasted line). The method defaults as curl's does: POST with a body.
 */
export function parseCurl(line: string, readFile: (path: string) => string): CurlRequest {
  const words = shellWords(line.trim())
  if (words[0] === 'curl') words.shift()
  let method: string | undefined
  let url: string | undefined
  const bodies: string[] = []
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!
    const eq = w.startsWith('--') ? w.indexOf('=') : -1
    const flag = eq > 0 ? w.slice(0, eq) : w
    const inline = eq > 0 ? w.slice(eq + 1) : undefined
    const take = (): string => {
      if (inline !== undefined) return inline
      const v = words[++i]
      if (v === undefined) throw new InputError(`--curl: ${flag} needs a value`)
      return v
    }
    if (DATA_FLAGS.has(flag) || (/^-d./.test(w) && !w.startsWith('--'))) {
      const v = /^-d./.test(w) && !w.startsWith('--') ? w.slice(2) : take()
      if (v.startsWith('@') && flag !== '--data-raw') {
        if (v === '@-')
          throw new InputError('--curl: a body read from stdin (@-) is not in the command line; pipe the body to `oec explain -` instead')
        bodies.push(readFile(v.slice(1)))
      } else bodies.push(v)
    } else if (flag === '-X' || flag === '--request') method = take().toUpperCase()
    else if (/^-X./.test(w)) method = w.slice(2).toUpperCase()
    else if (flag === '--url') url = take()
    else if (WITH_VALUE.has(flag)) take()
    else if (!w.startsWith('-')) url ??= w
  }
  if (bodies.length === 0) throw new InputError('--curl: the command line has no -d/--data/--data-binary body')
  let path: string | undefined
  if (url !== undefined) {
    try {
      path = new URL(/^[a-z]+:\/\//i.test(url) ? url : `http://${url}`).pathname
    } catch {
      path = undefined
    }
  }
  // curl joins several -d values with '&'; a JSON body comes in one.
  return { method: method || 'POST', path: path && path !== '/' ? path : undefined, body: bodies.join('&') }
}
