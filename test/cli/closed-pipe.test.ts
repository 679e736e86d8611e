/** `oec … | head`: a reader that closes the pipe early gets no stack trace on stderr. */
import { spawn } from 'node:child_process'
import { expect, it } from 'vitest'
import { OEC, ROOT } from '../helpers/cli.ts'

it('a closed stdout ends the command quietly (EPIPE is not an error)', async () => {
  const child = spawn(process.execPath, [OEC, 'lint', '--list-rules', '--format', 'json'], { cwd: ROOT })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  // Read the first chunk, then close our end as `head -c` does.
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
  child.stdout.destroy()
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  expect(stderr).not.toMatch(/EPIPE|at .*\.js:\d+/)
  expect(code).toBe(0)
})
