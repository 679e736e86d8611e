// Bug: hashes every options message under chainId 1.
import { serve } from './base.mts'
const DEFAULT = { name: 'Service', version: '1', verifyingContract: '0x0000000000000000000000000000000000000000' }
await serve({
  request: (req) => {
    if (req.kind !== 'Agent') req.domain = { ...DEFAULT, ...(req.domain ?? {}), chainId: 1 }
  },
})
