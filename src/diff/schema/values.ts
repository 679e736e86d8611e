/**
 * Keywords that name the values themselves: `enum`, `const`, `default`, `pattern`,
 * `contentEncoding`/`contentMediaType` and `deprecated`. A pattern widened to one that matches
 * everything (`.*`) is a generalisation, not a change.
 */
import type { JsonObject } from '../../contract/model.ts'
import { deprecationChange } from '../sunset.ts'
import { push, type NodePair } from './kernel.ts'

const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v))
const key = (v: unknown): string => JSON.stringify(v)

/** Patterns that accept every string: `.*`, `^.*$`, `[\s\S]*`, '' and the like. */
const UNIVERSAL = /^\^?(\.\*|\[\\s\\S\]\*|\[\\S\\s\]\*|\(\.\*\))?\$?$/

export function compareValues({ ctx, bs, hs, hPtr, out }: NodePair): void {
  const req = ctx.dir === 'request'
  const eb = Array.isArray(bs.enum) ? bs.enum : undefined
  const eh = Array.isArray(hs.enum) ? hs.enum : undefined
  const enumPtr = `${hPtr}/enum`
  if (eb && eh) {
    const hk = new Set(eh.map(key))
    const bk = new Set(eb.map(key))
    for (const v of eb) {
      if (hk.has(key(v))) continue
      push(out, 'enum-value-removed', enumPtr, (n) => `${n} no longer ${req ? 'accepts' : 'returns'} the value ${show(v)}`, {
        before: v,
        detail: key(v),
      })
    }
    for (const v of eh) {
      if (bk.has(key(v))) continue
      if (!req && hs['x-extensible-enum'] === true) continue
      const text = req
        ? (n: string) => `${n} accepts the new value ${show(v)}`
        : (n: string) => `${n} may return the new value ${show(v)}, which clients may not handle`
      push(out, 'enum-value-added', enumPtr, text, { after: v, detail: key(v) })
    }
  } else if (req && !eb && eh && !('const' in bs)) {
    push(out, 'became-enum', enumPtr, (n) => `${n} is now restricted to ${eh.map(show).join(', ')}`, { after: eh })
  }

  // oasdiff's x-extensible-enum: the values known today, more may come; a request may send any of them.
  const xb = Array.isArray(bs['x-extensible-enum']) ? bs['x-extensible-enum'] : []
  const xh = new Set((Array.isArray(hs['x-extensible-enum']) ? hs['x-extensible-enum'] : []).map(key))
  for (const v of xb) {
    if (!xh.has(key(v)))
      push(out, 'x-extensible-enum-value-removed', `${hPtr}/x-extensible-enum`, (n) => `${n} no longer lists the value ${show(v)}`, {
        before: v,
        detail: `x:${key(v)}`,
      })
  }

  const cb = 'const' in bs
  const ch = 'const' in hs
  if (cb && ch && key(bs.const) !== key(hs.const)) {
    push(out, 'const-changed', `${hPtr}/const`, (n) => `${n} changed its const from ${show(bs.const)} to ${show(hs.const)}`, {
      before: bs.const,
      after: hs.const,
    })
  } else if (!cb && ch) push(out, 'const-added', `${hPtr}/const`, (n) => `${n} must now be ${show(hs.const)}`, { after: hs.const })
  else if (cb && !ch) push(out, 'const-removed', hPtr, (n) => `${n} is no longer fixed to ${show(bs.const)}`, { before: bs.const })

  const db = 'default' in bs
  const dh = 'default' in hs
  if (db && dh && key(bs.default) !== key(hs.default)) {
    push(
      out,
      'default-value-changed',
      `${hPtr}/default`,
      (n) => `${n} changed its default from ${show(bs.default)} to ${show(hs.default)}`,
      { before: bs.default, after: hs.default },
    )
  } else if (!db && dh)
    push(out, 'default-value-added', `${hPtr}/default`, (n) => `${n} got the default ${show(hs.default)}`, { after: hs.default })
  else if (db && !dh) push(out, 'default-value-removed', hPtr, (n) => `${n} lost its default ${show(bs.default)}`, { before: bs.default })

  comparePattern(bs, hs, hPtr, out)

  for (const [k, suffix] of [
    ['contentEncoding', 'content-encoding-changed'],
    ['contentMediaType', 'content-media-type-changed'],
  ] as const) {
    if (bs[k] !== undefined && hs[k] !== undefined && bs[k] !== hs[k]) {
      push(out, suffix, `${hPtr}/${k}`, (n) => `${n} changed ${k} from ${show(bs[k])} to ${show(hs[k])}`, { before: bs[k], after: hs[k] })
    }
  }
  const dep = deprecationChange(bs, hs)
  if (dep === 'deprecated' || dep === 'deprecated-with-sunset')
    push(
      out,
      dep,
      `${hPtr}/deprecated`,
      (n) => `${n} was deprecated${dep === 'deprecated' ? '' : ` with the sunset ${String(hs['x-sunset'])}`}`,
    )
  else if (dep === 'sunset-invalid')
    push(
      out,
      'deprecated-sunset-invalid',
      `${hPtr}/x-sunset`,
      (n) => `${n} has the x-sunset ${String(hs['x-sunset'])}, which is not a date`,
    )
  else if (dep === 'reactivated') push(out, 'reactivated', hPtr, (n) => `${n} is no longer deprecated`)
}

function comparePattern(bs: JsonObject, hs: JsonObject, hPtr: string, out: NodePair['out']): void {
  const pb = typeof bs.pattern === 'string' ? bs.pattern : undefined
  const ph = typeof hs.pattern === 'string' ? hs.pattern : undefined
  if (pb === ph) return
  if (!pb && ph) {
    if (!UNIVERSAL.test(ph)) push(out, 'pattern-added', `${hPtr}/pattern`, (n) => `${n} must now match the pattern ${ph}`, { after: ph })
  } else if (pb && !ph) {
    push(out, 'pattern-removed', hPtr, (n) => `${n} no longer has the pattern ${pb}`, { before: pb })
  } else if (pb && ph) {
    if (UNIVERSAL.test(ph))
      push(out, 'pattern-generalized', `${hPtr}/pattern`, (n) => `${n} widened its pattern from ${pb} to ${ph}`, { before: pb, after: ph })
    else push(out, 'pattern-changed', `${hPtr}/pattern`, (n) => `${n} changed its pattern from ${pb} to ${ph}`, { before: pb, after: ph })
  }
}
