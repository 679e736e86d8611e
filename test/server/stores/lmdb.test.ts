/** The store case suite (common.case.ts) against the LMDB stores of `oec serve --data`, each case on a new directory. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { openDataDir } from '../../../src/server/persist/data-dir.ts'
import { storeCases } from './common.case.ts'

const root = mkdtempSync(join(tmpdir(), 'oec-stores-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

storeCases('lmdb', async (retain) => {
  const data = openDataDir(mkdtempSync(join(root, 's-')), 'Service/999', { retain })
  return { nonces: data.nonces, agents: data.agents, archive: data.archive, observer: data.observer, close: () => data.close() }
})
