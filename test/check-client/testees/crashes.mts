// Bug: dies on any request whose message holds a non-ASCII string; fine otherwise.
import { serve } from './base.mts'
await serve({
  line: (line) => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the range \x00-\x7f is how the testee spots non-ASCII input
    if (/[^\x00-\x7f]|\\u[0-9a-fA-F]{4}/.test(line) && line.includes('"op":"sign"')) process.exit(3)
    return line
  },
})
