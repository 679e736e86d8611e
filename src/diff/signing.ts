/**
 * Diff of the EIP-712 typed data (`x-eip712`). Any change to a domain value or to a message's
 * encodeType invalidates every signature made before it, silently: each one just fails to
 * verify. So every such change is breaking and shows the old and new type strings and hashes.
 */
import { keccak256 } from '../signing/crypto.ts'
import type { DiffSpec, WithLayer } from './input.ts'
import { isObject, readSignedSchema, type SignedMessage, type TypedField } from '../contract/model.ts'
import type { ChangeSink, Collector } from './collect.ts'
import { esc } from './refs.ts'

/** EIP-712 encodeType: `Name(type name,...)` followed by the referenced struct types, sorted. */
export function encodeType(
  primaryType: string,
  fields: readonly { name: string; type: string }[],
  structs: ReadonlyMap<string, readonly { name: string; type: string }[]> = new Map(),
): string {
  const deps = new Set<string>()
  const visit = (fs: readonly { type: string }[]) => {
    for (const f of fs) {
      const base = f.type.replace(/\[[0-9]*\]/g, '')
      if (base === primaryType || deps.has(base)) continue
      const sub = structs.get(base)
      if (!sub) continue
      deps.add(base)
      visit(sub)
    }
  }
  visit(fields)
  const one = (name: string, fs: readonly { name: string; type: string }[]) => `${name}(${fs.map((f) => `${f.type} ${f.name}`).join(',')})`
  return (
    one(primaryType, fields) +
    [...deps]
      .sort()
      .map((d) => one(d, structs.get(d)!))
      .join('')
  )
}

export function typeHash(encoded: string): `0x${string}` {
  return `0x${keccak256(Buffer.from(encoded, 'utf8')).toString('hex')}`
}

/** Struct types other messages of the same domain define (unambiguous primary types only). */
function structsOf(spec: WithLayer<'typedData'>, domain: string): Map<string, readonly TypedField[]> {
  const byName = new Map<string, readonly TypedField[] | null>()
  for (const m of Object.values(spec.typedData.messages)) {
    if (m.domain !== domain) continue
    byName.set(m.primaryType, byName.has(m.primaryType) ? null : m.fields)
  }
  const out = new Map<string, readonly TypedField[]>()
  for (const [k, v] of byName) if (v) out.set(k, v)
  return out
}

export function messageTypeString(spec: WithLayer<'typedData'>, m: SignedMessage): string {
  return encodeType(m.primaryType, m.fields, structsOf(spec, m.domain))
}

function rawDomains(spec: DiffSpec): Record<string, Record<string, unknown>> {
  const ext = spec.doc['x-eip712']
  const out: Record<string, Record<string, unknown>> = {}
  if (isObject(ext) && isObject(ext.domains)) for (const [k, v] of Object.entries(ext.domains)) if (isObject(v)) out[k] = v
  return out
}

/** Domain values that enter the domain separator: not descriptions or extensions. */
function domainValues(d: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>()
  for (const [k, v] of Object.entries(d)) {
    if (k === 'description' || k.startsWith('x-')) continue
    // Addresses are 20 bytes: a change of letter case alone is not a change.
    out.set(k, typeof v === 'string' && /^0x[0-9a-fA-F]*$/.test(v) ? v.toLowerCase() : String(v))
  }
  return out
}

export function diffSigning(base: WithLayer<'typedData'>, head: WithLayer<'typedData'>, c: Collector): void {
  const dtb = encodeType('EIP712Domain', base.typedData.domainType)
  const dth = encodeType('EIP712Domain', head.typedData.domainType)
  if (dtb !== dth) {
    c.add(
      'eip712-domain-changed',
      '/x-eip712/domainType',
      `the EIP-712 domain type changed from \`${dtb}\` to \`${dth}\`, so every domain separator changes`,
      { before: dtb, after: dth },
    )
  }

  const db = rawDomains(base)
  const dh = rawDomains(head)
  for (const name of Object.keys(db).sort()) {
    const p = `/x-eip712/domains/${esc(name)}`
    if (!(name in dh)) {
      c.add('eip712-domain-removed', p, `the signing domain ${name} was removed`)
      continue
    }
    const vb = domainValues(db[name]!)
    const vh = domainValues(dh[name]!)
    for (const field of [...new Set([...vb.keys(), ...vh.keys()])].sort()) {
      const x = vb.get(field)
      const y = vh.get(field)
      if (x === y) continue
      const show = (v: string | undefined) => (v === undefined ? 'absent' : v)
      c.add(
        'eip712-domain-changed',
        `${p}/${esc(field)}`,
        `the ${name} signing domain's ${field} changed from ${show(x)} to ${show(y)}, which invalidates every signature made under it`,
        {
          before: db[name]![field] ?? null,
          after: dh[name]![field] ?? null,
        },
      )
    }
  }
  for (const name of Object.keys(dh).sort()) {
    if (!(name in db)) c.add('eip712-domain-added', `/x-eip712/domains/${esc(name)}`, `the signing domain ${name} was added`)
  }

  const mb = base.typedData.messages
  const mh = head.typedData.messages
  for (const id of Object.keys(mb).sort()) {
    const p = `/x-eip712/messages/${esc(id)}`
    const b = mb[id]!
    const h = mh[id]
    if (!h) {
      c.add('eip712-message-removed', p, `the signed message ${id} was removed`)
      continue
    }
    const tb = messageTypeString(base, b)
    const th = messageTypeString(head, h)
    if (tb !== th) {
      const hb = typeHash(tb)
      const hh = typeHash(th)
      c.add(
        'eip712-type-hash-changed',
        `${p}/fields`,
        `the signed message ${id} changed its type from \`${tb}\` (typeHash ${hb}) to \`${th}\` (typeHash ${hh}), so signatures made for the old type no longer verify`,
        {
          before: { type: tb, typeHash: hb },
          after: { type: th, typeHash: hh },
        },
      )
    }
    if (b.primaryType !== h.primaryType) {
      c.add(
        'eip712-primary-type-renamed',
        `${p}/primaryType`,
        `the signed message ${id} renamed its struct from ${b.primaryType} to ${h.primaryType}`,
        { before: b.primaryType, after: h.primaryType },
      )
    }
    if (b.domain !== h.domain) {
      c.add(
        'eip712-message-domain-changed',
        `${p}/domain`,
        `the signed message ${id} moved from the ${b.domain} domain to the ${h.domain} domain`,
        { before: b.domain, after: h.domain },
      )
    }
    h.fields.forEach((f, i) => {
      const old = b.fields.find((x) => x.name === f.name)
      if (old && old.body !== f.body) {
        c.add(
          'signed-field-mapping-changed',
          `${p}/fields/${i}`,
          `the typed field ${id}.${f.name} is now carried by the body property ${f.body} instead of ${old.body}`,
          { before: old.body, after: f.body },
        )
      }
    })
  }
  for (const id of Object.keys(mh).sort()) {
    if (!(id in mb)) c.add('eip712-message-added', `/x-eip712/messages/${esc(id)}`, `the signed message ${id} was added`)
  }
}

/** How a body is signed, as one comparable line: the signature property and each variant's rule. */
function signedBodyShape(schema: unknown): string | undefined {
  const signed = readSignedSchema(schema)
  if (!signed) return undefined
  const variants = signed.variants.map(
    (v) =>
      `${v.message}${v.whenPresent ? ` when ${v.whenPresent} is present` : ''}${v.whenAbsent ? ` when ${v.whenAbsent} is absent` : ''}`,
  )
  return `signature in ${signed.signature}${signed.derived ? `, ${signed.derived} derived from the body` : ''}; signed as ${variants.join(', or ')}`
}

/**
 * A request body that is signed differently (another message, another variant rule, another
 * signature property) makes every existing client's signature fail, even with identical types.
 */
export function diffSignedBodies(base: DiffSpec, head: DiffSpec, c: Collector): void {
  const schemas = (spec: DiffSpec) => {
    const comps = spec.doc.components
    return isObject(comps) && isObject(comps.schemas) ? comps.schemas : {}
  }
  const sb = schemas(base)
  const sh = schemas(head)
  for (const name of Object.keys(sb).sort()) {
    if (name in sh) diffSignedSchema(c, sb[name], sh[name], `/components/schemas/${esc(name)}`, `the request body ${name}`)
  }
}

/** One signed schema against its new version (a component, or an inline request body at `where`). */
export function diffSignedSchema(c: ChangeSink, b: unknown, h: unknown, pointer: string, what: string, where?: string): void {
  const before = signedBodyShape(b)
  if (before === undefined) return
  const after = signedBodyShape(h)
  if (before === after) return
  c.add(
    'signed-body-message-changed',
    `${pointer}/x-eip712-signed`,
    `${what} is now ${after ?? 'not signed'} (was: ${before}), so existing clients' signatures no longer verify`,
    { before, after: after ?? null, ...(where ? { where } : {}) },
  )
}
