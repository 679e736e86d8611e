#!/usr/bin/env node
// The CLI runs the compiled JavaScript in dist/ (built by `prepare` on install and `prepack` on pack).
let main
try {
  ;({ main } = await import('../dist/src/cli/main.js'))
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('dist/src/cli/main.js')) throw err
  process.stderr.write('oec: dist/ is missing: run `npm run build` in the package directory\n')
  process.exit(2)
}
process.exitCode = await main(process.argv.slice(2))
