// Bug: reads requests with JSON.parse, so nonces above 2^53 lose precision.
import { serve } from './base.mts'
await serve({ line: (line) => JSON.stringify(JSON.parse(line)) })
