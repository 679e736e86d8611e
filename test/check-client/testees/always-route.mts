// Bug: always signs and sends route (best_execution when the caller gave none).
import { serve } from './base.mts'
await serve({
  request: (req) => {
    if (req.op === 'sign' && req.kind === 'PlaceOrder' && req.message && req.message.route === undefined)
      req.message.route = 'best_execution'
  },
})
