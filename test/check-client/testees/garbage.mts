// Bug: prints a stray log line instead of the answer to every verify request.
import { serve } from './base.mts'
await serve({ answer: (out, req) => (req.op === 'verify' ? 'verifying... done' : out) })
