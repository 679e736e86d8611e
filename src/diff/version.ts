/**
 * The version policy: a breaking change needs a major bump of `info.version`, and a change to a
 * signed type or signing domain needs a bump of that domain's EIP-712 `version` too (so clients
 * and servers can tell the two signing schemes apart). Judged after the severity policy, so a
 * rule a project silenced or lowered does not demand a bump.
 */
import type { DiffSpec } from './input.ts'
import type { Collector } from './collect.ts'
import type { DiffFinding } from './model.ts'
import { esc } from './refs.ts'

/** Numeric release parts of a version string (`v2.1.0-rc1` → [2, 1, 0]); empty when none. */
export function versionParts(v: string): number[] {
  const m = /(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(v)
  return m ? [m[1], m[2], m[3]].map((x) => Number(x ?? 0)) : []
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0)
    if (d !== 0) return d
  }
  return 0
}

const SIGNING_RULES = new Set([
  'eip712-type-hash-changed',
  'eip712-primary-type-renamed',
  'eip712-message-domain-changed',
  'eip712-message-removed',
  'eip712-domain-changed',
])

export function diffVersions(base: DiffSpec, head: DiffSpec, findings: readonly DiffFinding[], c: Collector): void {
  const vb = versionParts(base.version)
  const vh = versionParts(head.version)
  const breaking = findings.filter((f) => f.severity === 'breaking')
  if (vb.length && vh.length && compareVersions(vh, vb) < 0) {
    c.add('api-version-decreased', '/info/version', `info.version went down from ${base.version} to ${head.version}`, {
      before: base.version,
      after: head.version,
    })
  }
  if (breaking.length > 0) {
    const n = `${breaking.length} breaking change${breaking.length === 1 ? '' : 's'}`
    if (base.version === head.version) {
      c.add('api-version-not-bumped', '/info/version', `${n} but info.version is still ${head.version}; bump the major version`, {
        before: base.version,
        after: head.version,
      })
    } else if (!(vb.length && vh.length && (vh[0] ?? 0) > (vb[0] ?? 0))) {
      c.add(
        'api-major-version-not-bumped',
        '/info/version',
        `${n} but info.version went from ${base.version} to ${head.version} without a major bump`,
        { before: base.version, after: head.version },
      )
    }
  }

  // Which signing domains had a breaking change of their own, or of a message signed under them?
  const touched = new Map<string, string[]>()
  const note = (domain: string, why: string) => touched.set(domain, [...(touched.get(domain) ?? []), why])
  for (const f of breaking) {
    if (!SIGNING_RULES.has(f.id)) continue
    const msg = /^\/x-eip712\/messages\/([^/]+)/.exec(f.pointer)
    const dom = /^\/x-eip712\/domains\/([^/]+)\/([^/]+)$/.exec(f.pointer)
    if (msg) {
      const id = msg[1]!.replace(/~1/g, '/').replace(/~0/g, '~')
      const domain = head.typedData?.messages[id]?.domain ?? base.typedData?.messages[id]?.domain
      if (domain) note(domain, `message ${id}`)
    } else if (dom && dom[2] !== 'version') {
      note(dom[1]!.replace(/~1/g, '/').replace(/~0/g, '~'), `domain ${dom[2]}`)
    } else if (f.pointer === '/x-eip712/domainType') {
      for (const d of Object.keys(head.typedData?.domains ?? {})) note(d, 'domain type')
    }
  }
  for (const [domain, why] of [...touched].sort()) {
    const b = base.typedData?.domains[domain]
    const h = head.typedData?.domains[domain]
    if (!b || !h || b.version !== h.version) continue
    c.add(
      'eip712-domain-version-not-bumped',
      `/x-eip712/domains/${esc(domain)}/version`,
      `the ${domain} signing domain changed (${[...new Set(why)].join(', ')}) but its EIP-712 version is still ${h.version}; bump it so old and new signatures cannot be confused`,
      {
        before: b.version,
        after: h.version,
      },
    )
  }
}
