/**
 * A release-candidate spec that `oec lint` passes but that lacks an error code the reference
 * server emits (`batch_too_large`, dropped from the catalog and from the one response naming
 * it): `oec serve` and the embedded `oec check server` refuse it in one line naming the file and
 * the code (exit 2, not an internal error), and `oec lint` reports it as information.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { loadContractText, missingServerNeeds, requireLayers } from '../../src/contract/index.ts'
import { DEFAULT_SPEC_PATH } from '../../src/contract/load.ts'
import { runOec } from '../helpers/cli.ts'

// Each test starts the binary, some several times: a loaded machine gets the time it needs.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 })

const tmp = mkdtempSync(join(tmpdir(), 'oec-needs-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const shipped = readFileSync(DEFAULT_SPEC_PATH, 'utf8')
const entry = /\n {2}- code: batch_too_large\n(?: {4}.*\n)+/
const withoutBatchCode = shipped
  .replace(entry, '\n')
  .replace('x-error-codes: [invalid_field, invalid_json, batch_too_large]', 'x-error-codes: [invalid_field, invalid_json]')
const spec = join(tmp, 'openapi.yaml')
writeFileSync(spec, withoutBatchCode)

describe('the spec requirements of the reference server', () => {
  it('the edited spec differs from the shipped one by the batch_too_large code only', () => {
    expect(withoutBatchCode).not.toMatch(/batch_too_large/)
    expect(missingServerNeeds(requireLayers(loadContractText(shipped, 'shipped.yaml'), ['catalog'], 'test'))).toEqual([])
    expect(
      missingServerNeeds(requireLayers(loadContractText(withoutBatchCode, 'rc.yaml'), ['catalog'], 'test')).map((m) => m.what),
    ).toEqual(['error code batch_too_large'])
  })

  it('oec lint passes it (exit 0) and says, as information, that the reference server needs the code', async () => {
    const r = await runOec(['lint', spec], { timeoutMs: 60_000 })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/server-needs \(info\) the reference server needs error code batch_too_large/)
    const shippedLint = await runOec(['lint'], { timeoutMs: 60_000 })
    expect(shippedLint.stdout).not.toMatch(/server-needs/)
  })

  for (const args of [
    ['serve', '--port', '0'],
    ['check', 'server'],
  ]) {
    it(`oec ${args.join(' ')} --spec refuses it in one line naming the file and the code (exit 2)`, async () => {
      const r = await runOec([...args, '--spec', spec], { timeoutMs: 60_000 })
      expect(r.code, r.stderr).toBe(2)
      const lines = r.stderr.trim().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(spec)
      expect(lines[0]).toMatch(/needs the error code batch_too_large in x-service-error-codes/)
      expect(r.stderr).not.toMatch(/internal error/)
    })
  }
})
