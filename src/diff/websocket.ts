/**
 * The `x-websocket` layer: the endpoint path, its channels, and each channel's message schemas.
 * What the client sends (`subscribe`, `unsubscribe`, `send`) is judged like a request body,
 * what the server pushes like a response body, with the same schema rules.
 */
import { isObject } from '../contract/model.ts'
import type { Collector } from './collect.ts'
import type { DiffSpec } from './input.ts'
import { esc } from './refs.ts'
import type { Sameness } from './same.ts'
import { compareSchemas } from './schema/index.ts'

const CLIENT_SENDS = new Set(['subscribe', 'unsubscribe', 'send', 'publish'])

export function diffWebsocket(base: DiffSpec, head: DiffSpec, c: Collector, same: Sameness): void {
  const memo = new Map()
  const wb = base.doc['x-websocket']
  const wh = head.doc['x-websocket']
  if (!isObject(wb) || !isObject(wh)) return
  if (wb.path !== wh.path)
    c.add('websocket-path-changed', '/x-websocket/path', `the WebSocket endpoint moved from ${String(wb.path)} to ${String(wh.path)}`, {
      before: wb.path ?? null,
      after: wh.path ?? null,
    })
  const cb = isObject(wb.channels) ? wb.channels : {}
  const ch = isObject(wh.channels) ? wh.channels : {}
  for (const name of Object.keys(cb).sort()) {
    const p = `/x-websocket/channels/${esc(name)}`
    const x = cb[name]
    const y = ch[name]
    if (!isObject(y)) {
      c.add('websocket-channel-removed', p, `the WebSocket channel ${name} was removed`)
      continue
    }
    if (!isObject(x)) continue
    for (const kind of Object.keys(x).sort()) {
      if (!isObject(x[kind])) continue
      if (!isObject(y[kind])) {
        c.add('websocket-message-removed', `${p}/${esc(kind)}`, `the ${kind} message of the WebSocket channel ${name} was removed`)
        continue
      }
      const dir = CLIENT_SENDS.has(kind) ? 'request' : 'response'
      const noun = (label: string) => (label ? `the ${name} ${kind} property \`${label}\`` : `the ${name} ${kind} message`)
      compareSchemas(
        { c, memo, same, baseDoc: base.doc, headDoc: head.doc, dir, site: 'body', noun, where: `WebSocket channel ${name}` },
        x[kind],
        `${p}/${esc(kind)}`,
        y[kind],
        `${p}/${esc(kind)}`,
      )
    }
    for (const kind of Object.keys(y).sort()) {
      if (isObject(y[kind]) && !isObject(x[kind]))
        c.add('websocket-message-added', `${p}/${esc(kind)}`, `the WebSocket channel ${name} gained the ${kind} message`)
    }
  }
  for (const name of Object.keys(ch).sort())
    if (!(name in cb)) c.add('websocket-channel-added', `/x-websocket/channels/${esc(name)}`, `the WebSocket channel ${name} was added`)
}
