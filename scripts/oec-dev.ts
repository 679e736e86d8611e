/** `npm run oec:dev -- ARGS`: the CLI straight from src/ through tsx, for editing without a rebuild. */
import { main } from '../src/cli/main.ts'

process.exitCode = await main(process.argv.slice(2))
