/**
 * Commander's parse errors as the one line the README promises: `oec:` and what is wrong, then the
 * fix. A mistyped command names the command it was probably meant to be (commander's own
 * suggestion, which it prints on a second line); anything else points at the command's --help.
 */

/** `text` as commander writes it ("error: …", maybe a "(Did you mean …?)" line) for `oec <path>`. */
export function oneLineUsageError(text: string, path: string): string {
  const lines = text
    .trim()
    .split('\n')
    .map((l) => l.trim())
  const what = (lines[0] ?? '').replace(/^error: /, '').replace(/\.$/, '')
  const command = path === '' ? 'oec' : `oec ${path}`
  const unknown = /^unknown command '(.*)'$/.exec(what)
  if (unknown) {
    const suggestion = /^\(Did you mean (.+)\?\)$/.exec(lines[1] ?? '')?.[1]
    return suggestion
      ? `oec: unknown command '${unknown[1]}': did you mean \`${command} ${suggestion}\`?\n`
      : `oec: unknown command '${unknown[1]}': \`${command} --help\` lists the commands\n`
  }
  const suggestion = /^\(Did you mean (.+)\?\)$/.exec(lines[1] ?? '')?.[1]
  const fix = suggestion ? `did you mean ${suggestion}?` : `see \`${command} --help\``
  return `oec: ${what}: ${fix}\n`
}
