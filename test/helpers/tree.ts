/** Walking and editing plain JSON trees in tests. */

/** Every path (as key lists) into a tree, containers and leaves, in document order. */
export function paths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at)
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out))
  else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) paths((v as Record<string, unknown>)[k], [...at, k], out)
  return out
}

/** A copy of the tree with the value at `path` replaced. */
export function replaced(doc: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value
  const copy: unknown = structuredClone(doc)
  let node = copy as Record<string | number, unknown>
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>
  node[path.at(-1)!] = value
  return copy
}
