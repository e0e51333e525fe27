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
  CORE_LAYERS,
  fileCycles,
  folderCycles,
  importsOf,
  layerOf,
  layerProblems,
  runtimeImportsOf,
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

describe('folders import one way, in every package', () => {
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

  // A CLI split into one file per command: the top imports the folder, the commands the helpers
  // beside the top that do not import them back; top files may import each other.
  const cli = {
    'demo/src/cli.ts': "import { serve } from './commands/serve.js'\nimport './workers.js'\n",
    'demo/src/workers.ts': "import type { CliIo } from './cli.js'\n",
    'demo/src/file-error.ts': 'export const x = 1\n',
    'demo/src/commands/serve.ts': "import { x } from '../file-error.js'\n",
    // Tests and fixtures are not part of the build: they may import anything.
    'demo/src/commands/serve.test.ts': "import { main } from '../cli.js'\n",
    'demo/src/commands/child.fixture.ts': "import { main } from '../cli.js'\n",
  }

  it('lets the top import folders, folders import top files, top files import each other', () => {
    expect(treeProblems(tree(cli))).toEqual([])
  })

  it('refuses a folder that imports a top file importing it back, naming the circle', () => {
    const root = tree({
      ...cli,
      'demo/src/commands/help.ts': "import type { CliIo } from '../cli.js'",
    })
    expect(treeProblems(root)).toEqual([
      'packages/demo/src/commands -> cli.ts -> commands: folders import each other in a circle ' +
        '(commands/help.ts:1 imports cli.ts; cli.ts:1 imports commands/serve.ts); the tangle ' +
        'also holds workers.ts. Imports between folders go one way: move the shared piece down, ' +
        'or let the lower folder own an interface that the upper one implements',
    ])
  })

  it('refuses two folders that import each other, type-only imports included', () => {
    const root = tree({
      'demo/src/orda/data-class.ts':
        "import { x } from './own.js'\nimport { callByName } from '../functions/call.js'\n",
      'demo/src/functions/call.ts': "type D = import('../orda/data-class.js').DataClass\n",
      // Each package is a graph of its own: this import closes no circle with demo's orda.
      'other/src/functions/call.ts': "import { y } from '../orda/entity.js'\n",
    })
    expect(treeProblems(root)).toEqual([
      expect.stringMatching(
        /^packages\/demo\/src\/functions -> orda -> functions: folders import each other in a circle \(functions\/call\.ts:1 imports orda\/data-class\.ts; orda\/data-class\.ts:2 imports functions\/call\.ts\)/,
      ),
    ])
  })

  it('names the shortest circle, and the other folders caught in it', () => {
    const problems = folderCycles([
      { path: 'packages/x/src/a/a.ts', text: "import '../b/b.js'" },
      { path: 'packages/x/src/b/b.ts', text: "import '../c/c.js'\nimport '../d/d.js'" },
      { path: 'packages/x/src/c/c.ts', text: "import '../a/a.js'" },
      { path: 'packages/x/src/d/d.ts', text: "import '../c/c.js'" },
      { path: 'packages/x/src/e/e.ts', text: "import '../a/a.js'" },
    ])
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(
      /^packages\/x\/src\/a -> b -> c -> a: .*; the tangle also holds d\./,
    )
  })

  it('fails `tsx tools/layers.ts <root>` with the circle, and passes once it is gone', () => {
    const bad = tree({
      'demo/src/a/one.ts': "import '../b/two.js'",
      'demo/src/b/two.ts': "import '../a/one.js'",
    })
    const run = (at: string) =>
      spawnSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'tools/layers.ts'), at], {
        encoding: 'utf8',
      })
    const failed = run(bad)
    expect(failed.status).toBe(1)
    expect(failed.stderr).toContain('packages/demo/src/a -> b -> a: folders import each other')
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
    expect(folderCycles(files)).toEqual([])
  })
})

describe('run-time circles of files within a folder of any package', () => {
  const file = (name: string, text: string) => ({ path: `packages/core/src/orda/${name}`, text })

  it('names the loop with the import of each step', () => {
    const problems = fileCycles([
      file('a.ts', "import { b } from './b.js'\n"),
      file('b.ts', "import { c } from './c.js'\n"),
      file('c.ts', "export { a } from './a.js'\n"),
    ])
    expect(problems).toEqual([
      'packages/core/src/orda: files import each other at run time in a circle (a.ts:1 imports ' +
        'b.ts; b.ts:1 imports c.ts; c.ts:1 imports a.ts). Move what both need to a lower file, ' +
        'import types only, or reach the other through an object it is given',
    ])
  })

  it('leaves type-only imports, tests and other folders out', () => {
    expect(
      fileCycles([
        file('a.ts', "import { b } from './b.js'\n"),
        file(
          'b.ts',
          "import type { A } from './a.js'\nimport { type A2, type A3 } from './a.js'\n",
        ),
        file('a.test.ts', "import { b } from './b.js'\n"),
        file('b.fixture.ts', "import { a } from './a.js'\n"),
        { path: 'packages/rest/src/x/a.ts', text: "import { b } from './b.js'\n" },
        { path: 'packages/rest/src/y/b.ts', text: "import { a } from '../x/a.js'\n" },
        // The files beside src/ are the top: folderCycles' business.
        { path: 'packages/rest/src/a.ts', text: "import { b } from './b.js'\n" },
        { path: 'packages/rest/src/b.ts', text: "import { a } from './a.js'\n" },
      ]),
    ).toEqual([])
  })

  it('holds in every package, not only the core (a circle of the 4D compiler)', () => {
    expect(
      fileCycles([
        { path: 'packages/4d/src/compile/emit/a.ts', text: "import { b } from './b.js'\n" },
        { path: 'packages/4d/src/compile/emit/b.ts', text: "import { a } from './a.js'\n" },
      ]),
    ).toEqual([
      'packages/4d/src/compile/emit: files import each other at run time in a circle (a.ts:1 ' +
        'imports b.ts; b.ts:1 imports a.ts). Move what both need to a lower file, import types ' +
        'only, or reach the other through an object it is given',
    ])
  })

  it('reads which imports load code', () => {
    const text = [
      "import type { A } from './a.js'",
      "import { type B, type C } from './b.js'",
      "import { d, type E } from './d.js'",
      "import f, { g } from './f.js'",
      "export type { H } from './h.js'",
      "export { i } from './i.js'",
      "import './side-effect.js'",
      'import {',
      '  type J,',
      '  k,',
      "} from './k.js'",
    ].join('\n')
    expect(runtimeImportsOf(text).map((i) => i.spec)).toEqual([
      './d.js',
      './f.js',
      './i.js',
      './side-effect.js',
      './k.js',
    ])
  })

  it("finds none in this repository (core's orda/ had one of 21 files, the 4D compiler one of 4)", () => {
    expect(fileCycles(sourceFiles(root))).toEqual([])
  })
})
