// A partial client: it signs and verifies the options domain only; every perpetuals (Agent)
// request gets an error answer, as a signer that never implemented that venue would give.
import { serve } from './base.mts'
await serve({
  answer: (out, req) => (req.kind === 'Agent' ? JSON.stringify({ id: req.id, error: 'perpetuals are not supported by this client' }) : out),
})
