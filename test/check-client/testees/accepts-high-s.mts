// Bug: its verifier accepts malleable (high-s) signatures.
import { serve } from './base.mts'
await serve({
  request: (req) => {
    if (req.op === 'verify') req.allowHighS = true
  },
})
