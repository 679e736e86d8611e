// Bug: sends size and price as JSON numbers in the body.
import { serve } from './base.mts'
await serve({
  answer: (out) => {
    const a = JSON.parse(out)
    if (typeof a.body === 'string') a.body = a.body.replace(/"(size|price)":"([0-9.]+)"/g, '"$1":$2')
    return JSON.stringify(a)
  },
})
