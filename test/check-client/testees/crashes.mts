// Bug: dies on any request whose message holds a non-ASCII string; fine otherwise.
import { serve } from './base.mts'
await serve({
  line: (line) => {
    if (/[^\x00-\x7f]|\\u[0-9a-fA-F]{4}/.test(line) && line.includes('"op":"sign"')) process.exit(3)
    return line
  },
})
