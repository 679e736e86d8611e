/**
 * Gathers raw changes while the comparers walk the specs. The same change reached from several
 * operations (a shared component) becomes one finding that lists the operations, so a changed
 * `Route` enum is reported once, not once per endpoint that uses it.
 */
import { SEVERITY_RANK, type DiffFinding, type DiffLevel, type DiffSeverity } from './model.ts'
import { isRuleId, RULES, type DiffRuleId } from './registry.ts'

export interface ChangeExtra {
  readonly before?: unknown
  readonly after?: unknown
  /** Overrides the rule's default severity for this change (e.g. a closed vs open schema). */
  readonly severity?: DiffSeverity
  /** Where the change is seen from, e.g. `POST /order`; merged across occurrences. */
  readonly where?: string
  /** Distinguishes changes at one pointer (e.g. each removed enum value). */
  readonly detail?: string
}

interface Entry {
  id: string
  pointer: string
  text: string
  extra: ChangeExtra
  /** A set: a change in a component of Stripe's spec is seen from thousands of operations. */
  where: Set<string>
}

const MAX_WHERE = 4

/** Where comparers put changes: the collector itself, or a recorder that replays them later. */
export interface ChangeSink {
  add(id: DiffRuleId, pointer: string, text: string, extra?: ChangeExtra): void
}

/** Records changes so that a comparison shared by many operations runs once and is replayed. */
export class Recorder implements ChangeSink {
  readonly calls: [DiffRuleId, string, string, ChangeExtra][] = []
  add(id: DiffRuleId, pointer: string, text: string, extra: ChangeExtra = {}): void {
    this.calls.push([id, pointer, text, extra])
  }
  /** Replays into `sink`, as seen from `where`. */
  replay(sink: ChangeSink, where: string): void {
    for (const [id, pointer, text, extra] of this.calls) sink.add(id, pointer, text, { ...extra, where })
  }
}

export class Collector implements ChangeSink {
  private readonly entries = new Map<string, Entry>()

  /** `text` is the sentence without a final period and without the operations. */
  add(id: DiffRuleId, pointer: string, text: string, extra: ChangeExtra = {}): void {
    if (!isRuleId(id)) throw new Error(`diff: unregistered rule ${id}`)
    const key = `${id}\u0000${pointer}\u0000${extra.detail ?? ''}`
    let entry = this.entries.get(key)
    if (!entry) {
      entry = { id, pointer, text, extra, where: new Set() }
      this.entries.set(key, entry)
    } else if (text.length < entry.text.length || (text.length === entry.text.length && text < entry.text)) {
      // The same change seen through several paths: name it by the shortest one.
      entry.text = text
    }
    if (extra.where) entry.where.add(extra.where)
  }

  /** The findings with the policy applied (`none` drops a rule), deterministically sorted. */
  findings(policy: ReadonlyMap<string, DiffLevel> = new Map()): DiffFinding[] {
    const out: DiffFinding[] = []
    for (const e of this.entries.values()) {
      const level = policy.get(e.id) ?? e.extra.severity ?? RULES[e.id]!.severity
      if (level === 'none') continue
      out.push({
        id: e.id,
        severity: level,
        pointer: e.pointer,
        message: sentence(e.text, e.where),
        ...(e.extra.before !== undefined ? { before: e.extra.before } : {}),
        ...(e.extra.after !== undefined ? { after: e.extra.after } : {}),
      })
    }
    return sortFindings(out)
  }
}

function sentence(text: string, where: ReadonlySet<string>): string {
  let s = text
  if (where.size > 0) {
    const sorted = [...where].sort()
    const shown = sorted.slice(0, MAX_WHERE)
    const more = where.size - shown.length
    s += ` in ${shown.join(', ')}${more > 0 ? ` and ${more} more operation${more === 1 ? '' : 's'}` : ''}`
  }
  s = s.charAt(0).toUpperCase() + s.slice(1)
  return s.endsWith('.') ? s : `${s}.`
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Most severe first, then by pointer, rule id and message: the same input always prints the same way. */
export function sortFindings(findings: DiffFinding[]): DiffFinding[] {
  return findings.sort(
    (a, b) =>
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || cmp(a.pointer, b.pointer) || cmp(a.id, b.id) || cmp(a.message, b.message),
  )
}
