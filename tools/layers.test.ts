import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CORE_LAYERS, importsOf, layerOf, layerProblems } from './layers.ts'

const root = new URL('..', import.meta.url).pathname

describe('core layers', () => {
  it('refuses an upward import and names both files', () => {
    const problems = layerProblems(
      'packages/core/src/query/order.ts',
      "import { x } from './bound.js'\nimport type { EntitySelection } from '../orda/entity-selection.js'\n",
    )
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(
      /^packages\/core\/src\/query\/order\.ts:2: imports orda\/entity-selection\.ts from a layer above/,
    )
  })

  it('counts type-only imports, import() types and re-exports', () => {
    const file = 'packages/core/src/values/coerce.ts'
    expect(layerProblems(file, "import type { A } from '../schema/definitions.js'")).toHaveLength(1)
    expect(layerProblems(file, "type E = import('../orda/entity.js').Entity")).toHaveLength(1)
    expect(layerProblems(file, "export { x } from '../store/table.js'")).toHaveLength(1)
  })

  it('allows imports from the same layer and from below', () => {
    const file = 'packages/core/src/schema/load-model.ts'
    const text = [
      "import { fail } from '../errors/datastore-error.js'",
      "import type { Clock } from '../clock/clock.js'",
      "import { coerceToType } from '../values/coerce.js'",
      "import type { SessionStore } from '../sessions/session-store.js'",
      "import { x } from './definitions.js'",
      "import { LRUCache } from 'lru-cache'",
    ].join('\n')
    expect(layerProblems(file, text)).toEqual([])
  })

  it('does not check tests, which may build fixtures through the public objects', () => {
    expect(
      layerProblems(
        'packages/core/src/query/order.test.ts',
        "import { x } from '../orda/datastore.js'",
      ),
    ).toEqual([])
  })

  it('asks for a layer for a new top-level folder', () => {
    expect(layerProblems('packages/core/src/journal/journal.ts', '')).toEqual([
      'packages/core/src/journal/journal.ts: its folder is in no layer of tools/layers.ts (add it to CORE_LAYERS)',
    ])
  })

  it('finds imports anywhere on a line, with their line numbers', () => {
    expect(importsOf("a\nconst t: import('./x.js').T = 1\nexport * from './y.js'")).toEqual([
      { spec: './x.js', line: 2 },
      { spec: './y.js', line: 3 },
    ])
  })

  it('holds for the whole core as it is', () => {
    const src = join(root, 'packages/core/src')
    const files: string[] = []
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name)
        if (statSync(path).isDirectory()) walk(path)
        else if (name.endsWith('.ts')) files.push(path)
      }
    }
    walk(src)
    const problems = files.flatMap((f) => layerProblems(relative(root, f), readFileSync(f, 'utf8')))
    expect(problems).toEqual([])
    // Every top-level folder of the core is in a layer.
    for (const name of readdirSync(src))
      expect(layerOf(`packages/core/src/${name}`), name).toBeTypeOf('number')
    expect(CORE_LAYERS.flat()).toContain('orda')
  })
})
