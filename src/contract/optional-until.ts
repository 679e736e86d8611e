/**
 * `x-optional-until: YYYY-MM-DD` on a property: optional until that date, after which it may
 * become required (the seed's route field). Once the date has passed, `oec lint` says so as
 * information and `oec serve` says so at start.
 */
import { isObject } from './model.ts'
import { toPointer } from './source.ts'

export interface PassedOptional {
  /** Pointer of the `x-optional-until` value. */
  readonly pointer: string
  /** The property's name. */
  readonly name: string
  readonly until: string
}

/** Every property whose x-optional-until date is before `today` (YYYY-MM-DD), in document order. */
export function passedOptionalUntil(doc: unknown, today: string = new Date().toISOString().slice(0, 10)): PassedOptional[] {
  const out: PassedOptional[] = []
  // One path, grown and shrunk in place: a copy per node cost a large spec tens of milliseconds.
  const at: (string | number)[] = []
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        at.push(i)
        walk(node[i])
        at.pop()
      }
      return
    }
    if (!isObject(node)) return
    const until = node['x-optional-until']
    if (typeof until === 'string' && until < today)
      out.push({ pointer: toPointer([...at, 'x-optional-until']), name: String(at[at.length - 1] ?? ''), until })
    for (const k in node) {
      at.push(k)
      walk(node[k])
      at.pop()
    }
  }
  walk(doc)
  return out
}

/** The sentence both commands print. */
export function passedOptionalLine(p: PassedOptional): string {
  return `${p.name} was optional until ${p.until}, which has passed: it may now become required`
}
