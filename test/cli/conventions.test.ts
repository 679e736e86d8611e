/**
 * Conventions users bring from the peers: oec diff takes oasdiff's --fail-on spellings, writes
 * --out FILE (a one-line summary and "wrote FILE"), has a junit format, and refuses a head whose
 * $ref points nowhere (exit 2); oec sign names every missing flag at once; a run with --out
 * prints its summary line and "wrote FILE"; oec serve says at start that the route's
 * optional-until date has passed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { DEFAULT_SPEC_PATH } from '../../src/contract/load.ts'
import { runMain } from '../helpers/main.ts'
import { startServe } from '../helpers/cli.ts'
import { PassThrough } from 'node:stream'
import { createReporter } from '../../src/report/index.ts'

// Each test starts the binary, some several times: a loaded machine gets the time it needs.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 })

const tmp = mkdtempSync(join(tmpdir(), 'oec-conv-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const shipped = readFileSync(DEFAULT_SPEC_PATH, 'utf8')
const write = (name: string, text: string) => {
  const path = join(tmp, name)
  writeFileSync(path, text)
  return path
}
// A breaking change (a catalog code removed) and nothing else.
const head = write(
  'head.yaml',
  shipped
    .replace(/\n {2}- code: batch_too_large\n(?: {4}.*\n)+/, '\n')
    .replace('x-error-codes: [invalid_field, invalid_json, batch_too_large]', 'x-error-codes: [invalid_field, invalid_json]'),
)

describe('oec diff conventions', () => {
  it('--fail-on takes ERR, WARN and INFO as oasdiff spells them; anything else is exit 2', async () => {
    for (const word of ['ERR', 'warn', 'INFO', 'breaking']) {
      const r = await runMain(['diff', DEFAULT_SPEC_PATH, head, '--fail-on', word])
      expect(r.code, `${word}: ${r.stderr}`).toBe(1)
    }
    const same = await runMain(['diff', DEFAULT_SPEC_PATH, DEFAULT_SPEC_PATH, '--fail-on', 'ERR'])
    expect(same.code).toBe(0)
    const bad = await runMain(['diff', DEFAULT_SPEC_PATH, head, '--fail-on', 'severe'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--fail-on takes breaking, warning or info \(or ERR, WARN, INFO\)/)
  })

  it('--out FILE --format junit writes JUnit XML and prints the summary line and "wrote FILE"', async () => {
    const out = join(tmp, 'diff.xml')
    const r = await runMain(['diff', DEFAULT_SPEC_PATH, head, '--format', 'junit', '--out', out])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^oec diff: FAILED \(--fail-on breaking\): \d+ breaking, \d+ warning\(s\), \d+ info\nwrote .*diff\.xml\n$/)
    const xml = readFileSync(out, 'utf8')
    expect(xml).toMatch(/^<\?xml/)
    expect(xml).toMatch(/<testcase classname="error-code-removed"/)
    expect(xml).toMatch(/<failure/)
  })

  it('a head with a $ref that does not resolve is an input error naming the file and line (exit 2)', async () => {
    const broken = write('broken.yaml', shipped.replace('$ref: "#/components/schemas/Tif"', '$ref: "#/components/schemas/Tiff"'))
    const r = await runMain(['diff', DEFAULT_SPEC_PATH, broken])
    expect(r.code).toBe(2)
    expect(r.stderr.trim()).toMatch(/^oec: .*broken\.yaml:\d+: \$ref #\/components\/schemas\/Tiff does not resolve$/)
  })
})

describe('other conventions', () => {
  it('oec sign names every missing field at once, by its flag', async () => {
    const key = `0x${'11'.repeat(32)}`
    process.env.OEC_TEST_SIGN_KEY = key
    try {
      const r = await runMain(['sign', '--key-env', 'OEC_TEST_SIGN_KEY', '--kind', 'PlaceOrder', '--symbol', 'BTC-20261225-100000-C'])
      expect(r.code).toBe(2)
      expect(r.stderr.trim()).toBe('oec: sign: PlaceOrder needs --side, --size, --price, --tif, --client-id (missing)')
    } finally {
      delete process.env.OEC_TEST_SIGN_KEY
    }
  })

  it('check client --out prints the one-line summary and "wrote FILE" (and nothing on stdout)', async () => {
    const out = join(tmp, 'client.json')
    const r = await runMain([
      'check',
      'client',
      '--only',
      'place-order-valid/1',
      '--reporter',
      'json',
      '--out',
      out,
      '--',
      'oec',
      'sign',
      '--jsonl',
    ])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^oec check client against .*: PASSED: 1 cases in [\d.]+ s: 1 passed, 0 failed, .*\nwrote .*client\.json\n$/)
    expect(JSON.parse(readFileSync(out, 'utf8')).ok).toBe(true)
  })

  it('oec serve says at start that the route was optional until a date that has passed', async () => {
    const { child, ready } = startServe(['--port', '0'])
    try {
      const s = await ready
      for (let i = 0; i < 50 && !/optional until/.test(s.stderr()); i++) await new Promise((r) => setTimeout(r, 100))
      expect(s.stderr()).toMatch(/oec serve: note: route was optional until 2026-07-04, which has passed: it may now become required/)
    } finally {
      child.kill('SIGTERM')
    }
  })
})

describe('progress', () => {
  it('with a known total, the progress line shows it and an estimate of the time left', () => {
    const out = new PassThrough()
    let text = ''
    out.on('data', (d) => (text += d))
    const reporter = createReporter('pretty', out, { total: 100, color: false })
    for (let i = 0; i < 50; i++) reporter.onResult({ id: `c/${i}`, title: 't', rules: [], level: 'stated', outcome: 'pass', durationMs: 0 })
    expect(text).toMatch(/\.\.\. 50\/100 cases, 0 failed so far, ~\d+ s left\n/)
  })
})
