#!/usr/bin/env node
// The GitHub Action's entry (action.yml): runs `oec` with the argument vector of the action's
// `args` input (env OEC_ARGS: one argument per line, or a JSON array), never through a shell.
const { parseActionArgs } = await import('../dist/src/cli/action-args.js')
const { main } = await import('../dist/src/cli/main.js')
let args
try {
  args = parseActionArgs(process.env.OEC_ARGS ?? '')
} catch (err) {
  process.stderr.write(`oec: ${err.message}\n`)
  process.exit(2)
}
process.exitCode = await main(args)
