/**
 * The `args` input of the GitHub Action (action.yml) as an argument vector. A shell would split
 * one string of flags on spaces and expand `$`, `*` and quotes, so an argument such as a curl
 * command line or a path with a space could not be passed whole; the input is therefore a JSON
 * array of strings, or one argument per line (optionally written as a YAML list, `- arg`).
 * bin/oec-action.js runs `oec` with the result, never through a shell.
 */
import { InputError } from '../errors.ts'

export function parseActionArgs(input: string): string[] {
  const text = input.trim()
  if (text.startsWith('[')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (err) {
      throw new InputError(`the action input args starts with "[" but is not a JSON array: ${(err as Error).message}`)
    }
    if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string'))
      throw new InputError(
        'the action input args must be a JSON array of strings, e.g. ["check", "server", "--target", "http://localhost:8080"]',
      )
    return parsed
  }
  const args = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => unquote(l.startsWith('- ') ? l.slice(2).trim() : l))
  if (args.length === 0) throw new InputError('the action input args is empty: give the oec arguments, one per line or as a JSON array')
  return args
}

/** A YAML list item may be quoted (`- "--only=a b"`): the quotes are YAML's, not part of the argument. */
function unquote(s: string): string {
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) return JSON.parse(s) as string
  if (s.length >= 2 && s.startsWith("'") && s.endsWith("'")) return s.slice(1, -1).replace(/''/g, "'")
  return s
}
