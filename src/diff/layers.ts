/**
 * The toolkit's layers (the error catalog, EIP-712 typed data, rate limits, the WebSocket
 * channels) are optional extensions of a plain OpenAPI document. A layer's rules run only when
 * both sides carry it; a layer that appears or disappears is one finding, not one per element.
 */
import { isObject } from '../contract/model.ts'
import type { Collector } from './collect.ts'
import type { DiffSpec } from './input.ts'
import { esc } from './refs.ts'

export function layerKeys(spec: DiffSpec): readonly string[] {
  return [spec.catalogKey, 'x-eip712', 'x-rate-limits', 'x-websocket']
}

const present = (spec: DiffSpec, key: string) => isObject(spec.doc[key]) || Array.isArray(spec.doc[key])

export function diffLayers(base: DiffSpec, head: DiffSpec, c: Collector): void {
  for (const key of layerKeys(head)) {
    const b = present(base, key)
    const h = present(head, key)
    if (b && !h) c.add('layer-removed', `/${esc(key)}`, `the ${key} layer was removed, and every rule it stated with it`, { detail: key })
    if (!b && h) c.add('layer-added', `/${esc(key)}`, `the ${key} layer was added`, { detail: key })
  }
}
