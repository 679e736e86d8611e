/** Rebuilds a `curl` command that replays one recorded request exactly (body text included). */
import type { SentRequest } from './http.ts'

/** POSIX shell single-quoting: safe for any text, including quotes and newlines. */
export function shellQuote(s: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s
  return `'${s.replace(/'/g, `'\\''`)}'`
}

/** Headers curl adds by itself; repeating them would only add noise. */
const IMPLIED = new Set(['content-length', 'host', 'connection'])

export function curlCommand(req: SentRequest): string {
  const parts = ['curl', '-sS', '-i']
  if (req.method === 'HEAD') parts.push('-I')
  else if (req.method !== 'GET' || req.body !== undefined) parts.push('-X', req.method)
  for (const [k, v] of Object.entries(req.headers)) {
    if (IMPLIED.has(k.toLowerCase()) || k.toLowerCase() === 'accept') continue
    parts.push('-H', shellQuote(`${k}: ${v}`))
  }
  if (req.body !== undefined) parts.push('--data-binary', shellQuote(req.body))
  parts.push(shellQuote(req.url))
  return parts.join(' ')
}
