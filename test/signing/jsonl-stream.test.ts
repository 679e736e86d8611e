/**
 * `oec sign --jsonl` line framing: answers are written a chunk at a time, so the loop splits
 * lines itself. It must split as readline did (CRLF, LF, a lone CR, a last line without an end),
 * skip blank lines, keep multi-byte characters whole across chunks and answer in order.
 */
import { spawn } from 'node:child_process'
import { describe, expect, it, vi } from 'vitest'
import { OEC, ROOT, runOec } from '../helpers/cli.ts'

vi.setConfig({ testTimeout: 120_000 })

const verify = (id: string, wallet = 'é') =>
  `{"id":${id},"op":"verify","kind":"ApproveAgent","message":{"agent":"${wallet}","nonce":1},"signature":"0x00"}`

describe('oec sign --jsonl framing', () => {
  it('splits CRLF, LF and lone CR, skips blank lines and answers a last line without an end', async () => {
    const input = `${verify('1')}\r\n${verify('2')}\n\n  \r\n${verify('3')}\r${verify('"four"')}\r\n\r${verify('5')}`
    const r = await runOec(['sign', '--jsonl'], { input, timeoutMs: 120_000 })
    expect(r.code).toBe(0)
    const ids = r.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { id: unknown }).id)
    expect(ids).toEqual([1, 2, 3, 'four', 5])
  })

  it('answers each line as it arrives, across chunk boundaries inside a CRLF and a multi-byte character', async () => {
    const child = spawn(process.execPath, [OEC, 'sign', '--jsonl'], { cwd: ROOT })
    const answers: string[] = []
    let buf = ''
    child.stdout.setEncoding('utf8')
    const next = () =>
      new Promise<string>((resolve) => {
        const take = () => {
          const i = buf.indexOf('\n')
          if (i < 0) return child.stdout.once('data', (d: string) => ((buf += d), take()))
          const line = buf.slice(0, i)
          buf = buf.slice(i + 1)
          answers.push(line)
          resolve(line)
        }
        take()
      })
    const bytes = Buffer.from(`${verify('1', '€')}\r\n`)
    const euro = bytes.indexOf(Buffer.from('€')) + 1
    child.stdin.write(bytes.subarray(0, euro)) // half of the euro sign
    await new Promise((r) => setTimeout(r, 50))
    child.stdin.write(bytes.subarray(euro, bytes.length - 1)) // up to the CR
    const first = JSON.parse(await next()) as { id: number; error?: string }
    expect(first.id).toBe(1)
    expect(first.error ?? '').not.toMatch(/\uFFFD/)
    child.stdin.write(`\n${verify('2')}\n`) // the LF of the CRLF must not make a blank or extra answer
    expect((JSON.parse(await next()) as { id: number }).id).toBe(2)
    child.stdin.end()
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(code).toBe(0)
    expect(buf).toBe('')
    expect(answers).toHaveLength(2)
  })
})
