/**
 * Arrows only downward, zero import circles: src/ and generators/ hold the layer table of
 * docs/architecture.md (the page is the one place the order is written). The checker is a pure
 * function; the planted trees of test/fixtures/layers/ show that it fails on an arrow up, an
 * arrow sideways, a circle of types and a file in no room.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.ts'
import { readImportGraph } from './imports.ts'
import { arrowKey, checkLayers, describeViolation, parseLayers, type Pending } from './layers.ts'

const ARCHITECTURE = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')
const LAYERS = parseLayers(ARCHITECTURE)

/**
 * PENDING: the arrows and the circle being removed on main in the same hours, listed exactly.
 * The explorer takes the sender, runner and wallets of the named checks from check/server; they
 * move to check/target/, below both. check/target/ itself still reads check/server's config and
 * HTTP module. mirror.ts and session.ts of the explorer import each other. Each entry that no
 * longer occurs fails the first test below: delete it then, never add one.
 */
const EXPLORE_INTO_SERVER = [
  arrowKey('src/check/explore/explore.ts', 'src/check/server/http.ts'),
  arrowKey('src/check/explore/explore.ts', 'src/check/server/wallets.ts'),
  arrowKey('src/check/explore/in-process.ts', 'src/check/server/http.ts'),
  arrowKey('src/check/explore/mirror.ts', 'src/check/server/operations.ts'),
  arrowKey('src/check/explore/mirror.ts', 'src/check/server/requests.ts'),
  arrowKey('src/check/explore/mirror.ts', 'src/check/server/wallets.ts'),
  arrowKey('src/check/explore/observe.ts', 'src/check/server/http.ts'),
  arrowKey('src/check/explore/report.ts', 'src/check/server/curl.ts'),
  arrowKey('src/check/explore/report.ts', 'src/check/server/http.ts'),
  arrowKey('src/check/explore/session.ts', 'src/check/server/http.ts'),
  arrowKey('src/check/explore/session.ts', 'src/check/server/operations.ts'),
  arrowKey('src/check/explore/session.ts', 'src/check/server/requests.ts'),
  arrowKey('src/check/explore/session.ts', 'src/check/server/wallets.ts'),
  arrowKey('src/check/explore/shard.ts', 'src/check/server/http.ts'),
  arrowKey('src/check/explore/shard.ts', 'src/check/server/runner.ts'),
  arrowKey('src/check/explore/shard.ts', 'src/check/server/wallets.ts'),
]
const TARGET_INTO_SERVER = [
  arrowKey('src/check/target/profile.ts', 'src/check/server/config.ts'),
  arrowKey('src/check/target/world.ts', 'src/check/server/http.ts'),
  arrowKey('src/check/target/world.ts', 'src/check/server/operations.ts'),
]
const PENDING: Pending = {
  arrows: [...EXPLORE_INTO_SERVER, ...TARGET_INTO_SERVER],
  circles: [['src/check/explore/mirror.ts', 'src/check/explore/session.ts']],
}

describe('src/ and generators/ keep the layer order of docs/architecture.md', () => {
  const graph = readImportGraph(ROOT, ['src', 'generators'])

  it('every arrow runs down or stays in its room, no circle, every file in a room (the pending entries still occur)', () => {
    expect(graph.size).toBeGreaterThan(100)
    expect(checkLayers(graph, LAYERS, PENDING).map(describeViolation)).toEqual([])
  })

  it('without the pending entries, exactly those arrows and that circle are reported', () => {
    const found = checkLayers(graph, LAYERS).map((v) =>
      v.kind === 'upward' || v.kind === 'sideways'
        ? arrowKey(v.file, v.to)
        : v.kind === 'circle'
          ? v.files.join(' ')
          : describeViolation(v),
    )
    expect(found.sort()).toEqual([...PENDING.arrows!, ...PENDING.circles!.map((c) => c.join(' '))].sort())
  })

  it('the pending explore arrows all run from check/explore into check/server', () => {
    for (const a of EXPLORE_INTO_SERVER) expect(a).toMatch(/^src\/check\/explore\/\S+ -> src\/check\/server\//)
  })

  it('the three circles that were broken stay broken (diff/schema, check/client/http, server archive)', () => {
    const circles = checkLayers(graph, LAYERS).flatMap((v) => (v.kind === 'circle' ? v.files : []))
    expect(circles.filter((f) => /^src\/(diff\/schema|check\/client\/http|server)\//.test(f))).toEqual([])
  })
})

describe('the checker fails on planted trees (test/fixtures/layers/)', () => {
  const tree = (name: string) => {
    const root = join(ROOT, 'test/fixtures/layers', name)
    return { graph: readImportGraph(root, ['src']), layers: parseLayers(readFileSync(join(root, 'layers.md'), 'utf8')) }
  }
  const lines = (name: string, pending?: Pending) => {
    const { graph, layers } = tree(name)
    return checkLayers(graph, layers, pending).map(describeViolation)
  }

  it('down/: value, type-only, re-export and dynamic imports, all downward: nothing', () => {
    const { graph } = tree('down')
    // Every kind of arrow was read (so "nothing" is not a parser that saw nothing).
    expect([...graph.values()].flat().length).toBe(5)
    expect(lines('down')).toEqual([])
  })

  it('upward/: an import split over lines from the base layer into core', () => {
    expect(lines('upward')).toEqual(['src/base.ts:4: imports src/core/engine.ts, up from layer base to core (src/base.ts -> src/core/)'])
  })

  it('sideways/: a re-export from another room of the same layer', () => {
    expect(lines('sideways')).toEqual([
      'src/core/engine.ts:2: imports src/plugins/extra.ts, sideways within layer core (src/core/ -> src/plugins/)',
    ])
  })

  it('circle/: two files tied by types only, inside one room', () => {
    expect(lines('circle')).toEqual(['import circle: src/core/a.ts, src/core/b.ts'])
  })

  it('unplaced/: a folder no layer names', () => {
    expect(lines('unplaced')).toEqual(['src/stray/loose.ts: in no room of the layer table (add its folder to a layer)'])
  })

  it('computed/: an import() of a computed path is refused, since its arrow cannot be checked', () => {
    expect(lines('computed')).toEqual([
      'src/core/engine.ts:2: import() of a computed path (path): write each path out, so the check can follow it',
    ])
  })

  it('a pending entry excuses exactly its arrow or circle, and fails once it no longer occurs', () => {
    expect(lines('upward', { arrows: [arrowKey('src/base.ts', 'src/core/engine.ts')] })).toEqual([])
    expect(lines('circle', { circles: [['src/core/b.ts', 'src/core/a.ts']] })).toEqual([])
    expect(
      lines('down', { arrows: [arrowKey('src/base.ts', 'src/core/engine.ts')], circles: [['src/core/a.ts', 'src/core/b.ts']] }),
    ).toEqual([
      'pending entry no longer occurs, remove it: src/base.ts -> src/core/engine.ts',
      'pending entry no longer occurs, remove it: src/core/a.ts src/core/b.ts',
    ])
  })

  it('a room that holds no file is reported (a misspelt or removed folder in the table)', () => {
    const { graph, layers } = tree('down')
    const withTypo = [...layers, { name: 'extra', rooms: ['src/cores/'] }]
    expect(checkLayers(graph, withTypo).map(describeViolation)).toEqual([
      'src/cores/: a room of the layer table that holds no file (remove it or fix its path)',
    ])
  })
})

describe('docs/architecture.md shows every room', () => {
  const layout = /## Layout\n\n```\n([\s\S]*?)```/.exec(ARCHITECTURE)?.[1] ?? ''

  it('the Layout block names every folder room of the layer table', () => {
    expect(layout.length).toBeGreaterThan(0)
    const folders = LAYERS.flatMap((l) => l.rooms).filter((r) => r.endsWith('/'))
    const missing = folders.filter((r) => !layout.includes(`${r.split('/').at(-2)}/`))
    expect(missing).toEqual([])
  })
})
