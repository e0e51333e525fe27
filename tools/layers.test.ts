import { spawnSync } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type CircleRules,
  CORE_LAYERS,
  importsOf,
  layerOf,
  layerProblems,
  moduleImportsOf,
  roomCycles,
  sourceFiles,
  treeProblems,
} from './layers.ts'

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

describe('the rooms of every folder import one way, type imports counted', () => {
  const trees: string[] = []
  afterEach(() => {
    for (const t of trees.splice(0)) rmSync(t, { recursive: true, force: true })
  })

  /** A repository in a temporary folder with these files (paths below packages/). */
  const tree = (files: Record<string, string>): string => {
    const at = mkdtempSync(join(tmpdir(), 'layers-'))
    trees.push(at)
    for (const [path, text] of Object.entries(files)) {
      const file = join(at, 'packages', path)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, text)
    }
    return at
  }
  const none: CircleRules = { publicTypes: new Map() }
  const advice =
    '. Imports within a folder go one way: move the shared piece (types too) down into a file ' +
    'or room of its own, or let the lower one own an interface the upper one implements'

  // A CLI split into one file per command: the top imports the folder, the commands the helpers
  // beside the top that do not import them back; top files import each other one way.
  const cli = {
    'demo/src/cli.ts': "import { serve } from './commands/serve.js'\nimport './workers.js'\n",
    'demo/src/workers.ts': "import type { CliIo } from './cli-io.js'\n",
    'demo/src/cli-io.ts': 'export interface CliIo {}\n',
    'demo/src/file-error.ts': 'export const x = 1\n',
    'demo/src/commands/serve.ts': "import { x } from '../file-error.js'\n",
    // Tests and fixtures are not part of the build: they may import anything.
    'demo/src/commands/serve.test.ts': "import { main } from '../cli.js'\n",
    'demo/src/commands/child.fixture.ts': "import { main } from '../cli.js'\n",
  }

  it('passes a tree whose files and folders import one way, at every level', () => {
    expect(
      roomCycles(
        sourceFiles(
          tree({
            ...cli,
            // orda/ holds two rooms: objects/ builds on feed/ and on the types below both.
            'demo/src/orda/types/handles.ts': 'export interface Handle {}\n',
            'demo/src/orda/feed/hub.ts': "import type { Handle } from '../types/handles.js'\n",
            'demo/src/orda/feed/feed.ts': "import { hub } from './hub.js'\n",
            'demo/src/orda/objects/entity.ts':
              "import type { Handle } from '../types/handles.js'\nimport { feed } from '../feed/feed.js'\n",
            'demo/src/orda/objects/datastore.ts': "import { Entity } from './entity.js'\n",
            'demo/src/orda/datastore.ts': "export * from './objects/datastore.js'\n",
          }),
        ),
        none,
      ),
    ).toEqual([])
  })

  it('fails a type-only circle between two files of a folder, naming it', () => {
    const root = tree({
      'demo/src/orda/entity.ts': "import type { DataClass } from './data-class.js'\n",
      'demo/src/orda/data-class.ts': "type E = import('./entity.js').Entity\n",
    })
    expect(roomCycles(sourceFiles(root), none)).toEqual([
      'packages/demo/src/orda/data-class.ts -> entity.ts -> data-class.ts: import each other in ' +
        'a circle, type imports counted (data-class.ts:1 imports entity.ts; entity.ts:1 imports ' +
        'data-class.ts)' +
        advice,
    ])
  })

  it('fails a type-only circle between two subfolders, and checks each subfolder alone', () => {
    const root = tree({
      'demo/src/orda/feed/hub.ts': "import type { Entity } from '../objects/entity.js'\n",
      'demo/src/orda/objects/entity.ts': "import type { Hub } from '../feed/hub.js'\n",
      'demo/src/orda/objects/a.ts': "import type { B } from './b.js'\n",
      'demo/src/orda/objects/b.ts': "import type { A } from './a.js'\n",
    })
    expect(roomCycles(sourceFiles(root), none)).toEqual([
      expect.stringMatching(
        /^packages\/demo\/src\/orda\/feed -> objects -> feed: .*\(feed\/hub\.ts:1 imports objects\/entity\.ts; objects\/entity\.ts:1 imports feed\/hub\.ts\)/,
      ),
      expect.stringMatching(/^packages\/demo\/src\/orda\/objects\/a\.ts -> b\.ts -> a\.ts: /),
    ])
  })

  it('refuses a folder that imports a top file importing it back, naming the circle', () => {
    const root = tree({
      ...cli,
      'demo/src/commands/help.ts': "import type { CliIo } from '../cli.js'",
    })
    expect(treeProblems(root)).toEqual([
      'packages/demo/src/cli.ts -> commands -> cli.ts: import each other in a circle, type ' +
        'imports counted (cli.ts:1 imports commands/serve.ts; commands/help.ts:1 imports cli.ts)' +
        advice,
    ])
  })

  it('keeps each package a graph of its own', () => {
    const root = tree({
      'demo/src/orda/data-class.ts':
        "import { x } from './own.js'\nimport { callByName } from '../functions/call.js'\n",
      'demo/src/functions/call.ts': "type D = import('../orda/data-class.js').DataClass\n",
      // Each package is a graph of its own: this import closes no circle with demo's orda.
      'other/src/functions/call.ts': "import { y } from '../orda/entity.js'\n",
    })
    expect(treeProblems(root)).toEqual([
      expect.stringMatching(
        /^packages\/demo\/src\/functions -> orda -> functions: import each other in a circle, type imports counted \(functions\/call\.ts:1 imports orda\/data-class\.ts; orda\/data-class\.ts:2 imports functions\/call\.ts\)/,
      ),
    ])
  })

  it('names the shortest circle, and the other rooms caught in it', () => {
    const problems = roomCycles(
      [
        { path: 'packages/x/src/a/a.ts', text: "import '../b/b.js'" },
        { path: 'packages/x/src/b/b.ts', text: "import '../c/c.js'\nimport '../d/d.js'" },
        { path: 'packages/x/src/c/c.ts', text: "import '../a/a.js'" },
        { path: 'packages/x/src/d/d.ts', text: "import '../c/c.js'" },
        { path: 'packages/x/src/e/e.ts', text: "import '../a/a.js'" },
      ],
      none,
    )
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(
      /^packages\/x\/src\/a -> b -> c -> a: .*; the tangle also holds d\./,
    )
  })

  describe('run-time imports: no circle anywhere; type circles only among listed public files', () => {
    const q = 'packages/x/src/q'
    const files = (texts: Record<string, string>) =>
      Object.entries(texts).map(([name, text]) => ({ path: `${q}/${name}`, text }))
    const listing = (...names: string[]): CircleRules => ({
      ...none,
      publicTypes: new Map([[q, names]]),
    })
    const runTimeAdvice =
      '. No folder keeps a circle of run-time imports: move the shared piece down into a file or ' +
      'room of its own, or pass the upper one in (a function, or an object typed by an interface)'

    it('fails a run-time circle even in a listed folder', () => {
      const circle = files({
        'entity.ts': "import { DataClass } from './data-class.js'\n",
        'data-class.ts': "import type { X } from './x.js'\nexport { Entity } from './entity.js'\n",
      })
      const message =
        `${q}/data-class.ts -> entity.ts -> data-class.ts: import each other in a circle at run ` +
        'time (data-class.ts:2 imports entity.ts; entity.ts:1 imports data-class.ts)' +
        runTimeAdvice
      expect(roomCycles(circle, listing('data-class.ts', 'entity.ts'))).toEqual([message])
      // With no list, said once: the type circle is the same.
      expect(roomCycles(circle, none)).toEqual([message])
    })

    it('passes a type circle among listed files, the run-time imports going one way', () => {
      const tangle = files({
        'entity.ts': "import { DataClass } from './data-class.js'\n",
        'data-class.ts': "type E = import('./entity.js').Entity\n",
        'selection.ts':
          "import type { Entity } from './entity.js'\nexport type { DataClass } from './data-class.js'\n",
        'entity-types.ts': "import type { EntitySelection } from './selection.js'\n",
        'data-class-types.ts': "import type { T } from './entity-types.js'\n",
      })
      tangle[1]!.text += "import type { S } from './selection.js'\n"
      expect(roomCycles(tangle, listing('data-class.ts', 'entity.ts', 'selection.ts'))).toEqual([])
      expect(roomCycles(tangle, none)).toEqual([
        expect.stringMatching(
          /^packages\/x\/src\/q\/data-class\.ts -> entity\.ts -> data-class\.ts: import each other in a circle, type imports counted .*; the tangle also holds selection\.ts\. /,
        ),
      ])
    })

    it('fails a type circle that pulls in a file off the list, naming it and the import', () => {
      const tangle = files({
        'entity.ts': "import type { DataClass } from './data-class.js'\n",
        'data-class.ts':
          "import type { Entity } from './entity.js'\nimport type { Options } from './options.js'\n",
        'options.ts': "import type { Entity } from './entity.js'\n",
      })
      expect(roomCycles(tangle, listing('data-class.ts', 'entity.ts'))).toEqual([
        `${q}/options.ts -> entity.ts -> data-class.ts -> options.ts: import each other in a ` +
          'circle, type imports counted (options.ts:1 imports entity.ts; entity.ts:1 imports ' +
          'data-class.ts; data-class.ts:2 imports options.ts); options.ts is not on the ' +
          "folder's PUBLIC_TYPE_CIRCLES list in tools/layers.ts, and data-class.ts:2 imports " +
          'options.ts pulls it in' +
          advice,
      ])
    })

    it('fails a listed file that is in no circle any more, until it is taken off', () => {
      const tangle = files({
        'entity.ts': "import type { DataClass } from './data-class.js'\n",
        'data-class.ts': "import type { Entity } from './entity.js'\n",
        'options.ts': "import type { Entity } from './entity.js'\n",
      })
      const stale = `${q}/options.ts: is in no type circle any more: take it off the folder's PUBLIC_TYPE_CIRCLES list in tools/layers.ts`
      expect(roomCycles(tangle, listing('data-class.ts', 'entity.ts', 'options.ts'))).toEqual([
        stale,
      ])
      // A folder of another tree is not this one's business.
      expect(
        roomCycles(tangle, { ...none, publicTypes: new Map([['packages/y/src', ['a.ts']]]) }),
      ).toEqual([expect.stringMatching(/^packages\/x\/src\/q\/data-class\.ts -> entity\.ts/)])
    })

    it('counts `import type` as type-only, `import { type X }` and `import { X, type Y }` as run-time', () => {
      const typed = files({
        'entity.ts': "import { DataClass } from './data-class.js'\n",
        'data-class.ts': "import type { Entity, Draft } from './entity.js'\n",
      })
      expect(roomCycles(typed, listing('data-class.ts', 'entity.ts'))).toEqual([])
      // Under verbatimModuleSyntax `import { type X }` compiles to `import {} from`: it loads.
      const inline = files({
        'entity.ts': "import { DataClass } from './data-class.js'\n",
        'data-class.ts': "import { type Entity, type Draft } from './entity.js'\n",
      })
      expect(roomCycles(inline, listing('data-class.ts', 'entity.ts'))).toEqual([
        expect.stringMatching(/: import each other in a circle at run time \(/),
      ])
      const mixed = files({
        'entity.ts': "import { DataClass } from './data-class.js'\n",
        'data-class.ts': "import { isEntity, type Entity } from './entity.js'\n",
      })
      expect(roomCycles(mixed, listing('data-class.ts', 'entity.ts'))).toEqual([
        expect.stringMatching(/: import each other in a circle at run time \(/),
      ])
    })
  })

  it('reads which imports are for types only, and skips comments', () => {
    const text = [
      "import type { A } from './a.js'",
      "import { type B } from './b.js'",
      "import { c, type C } from './c.js'",
      "// import { d } from './d.js'",
      "export { e } from './e.js'",
      "export type { F } from './f.js'",
      "export { type G } from './g.js'",
      "export * from './h.js'",
      "import './i.js'",
      "type J = import('./j.js').J",
      "const k = await import('./k.js')",
      "import l, { type L } from './l.js'",
      'import {',
      '  type M,',
      "} from './m.js'",
    ].join('\n')
    expect(moduleImportsOf(text).map((i) => `${i.line} ${i.spec} ${i.typeOnly}`)).toEqual([
      '1 ./a.js true',
      '2 ./b.js false',
      '3 ./c.js false',
      '5 ./e.js false',
      '6 ./f.js true',
      '7 ./g.js false',
      '8 ./h.js false',
      '9 ./i.js false',
      '10 ./j.js true',
      '11 ./k.js false',
      '12 ./l.js false',
      '15 ./m.js false',
    ])
  })

  it('fails `tsx tools/layers.ts <root>` with the circle, and passes once it is gone', () => {
    const bad = tree({
      'demo/src/a/one.ts': "import '../b/two.js'",
      'demo/src/b/two.ts': "import type { One } from '../a/one.js'",
    })
    const run = (at: string) =>
      spawnSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'tools/layers.ts'), at], {
        encoding: 'utf8',
      })
    const failed = run(bad)
    expect(failed.status).toBe(1)
    expect(failed.stderr).toContain('packages/demo/src/a -> b -> a: import each other in a circle')
    writeFileSync(join(bad, 'packages/demo/src/b/two.ts'), '')
    expect(run(bad).status).toBe(0)
  })

  it('holds for every package as it is', () => {
    const files = sourceFiles(root)
    for (const pkg of ['core', 'rest', 'entistore'])
      expect(
        files.some((f) => f.path.startsWith(`packages/${pkg}/src/`)),
        pkg,
      ).toBe(true)
    expect(roomCycles(files)).toEqual([])
  })
})
