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
import { checkLayers, describeViolation, parseLayers } from './layers.ts'

const ARCHITECTURE = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')
const LAYERS = parseLayers(ARCHITECTURE)

describe('src/ and generators/ keep the layer order of docs/architecture.md', () => {
  const graph = readImportGraph(ROOT, ['src', 'generators'])

  it('every arrow runs down or stays in its room, no circle, every file in a room', () => {
    expect(graph.size).toBeGreaterThan(100)
    expect(checkLayers(graph, LAYERS).map(describeViolation)).toEqual([])
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
  const lines = (name: string) => {
    const { graph, layers } = tree(name)
    return checkLayers(graph, layers).map(describeViolation)
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
