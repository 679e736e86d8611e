/** The store case suite (common.case.ts) against the in-memory stores: `oec serve` without `--data`. */
import { createMemoryArchive } from '../../../src/server/archive.ts'
import { createAgentStore, createNonceStore } from '../../../src/server/stores.ts'
import { storeCases } from './common.case.ts'

storeCases('memory', async (retain) => ({
  nonces: createNonceStore(),
  agents: createAgentStore(),
  archive: createMemoryArchive(retain),
  close: async () => {},
}))
