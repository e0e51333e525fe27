/**
 * @module The folders of each package import one way, and the core's folders also keep to the
 * layers listed here, lowest first.
 *
 * - Every package (packages/<name>/src): the folders directly under src/ and the files beside them
 *   (the top: cli.ts, index.ts, handler.ts…) must not import each other in a circle that passes
 *   through a folder. A top file may import any folder, and a folder a top file, so long as
 *   nothing imported imports back. Top files among themselves, and the files within one folder
 *   (its subfolders included), are one level here. A new folder needs no entry anywhere: the
 *   check follows the imports.
 * - Within each folder of every package, files do not import each other in a circle at run time
 *   (type-only imports aside: they are erased, and types may refer to each other).
 * - The core (packages/core/src) also lists its folders in layers (CORE_LAYERS): a file may import
 *   from its own layer or a layer below, never from one above.
 *
 * Type-only imports and `import('…')` type expressions count. When two pieces need each other,
 * the shared part moves down, or the lower folder owns an interface that the upper one implements.
 *
 * Tests are not checked: a test beside the query engine may build its fixture through the public
 * Datastore, as a user would. Nor, for the circles, are fixtures, which the build leaves out as
 * it does tests (a fixture in a folder may start the CLI in cli.ts).
 *
 * Run by `npm run lint` (tools/lint.ts); `npx tsx tools/layers.ts [root]` runs these checks alone.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The layers of packages/core/src, lowest first; a layer is a list of top-level folders or files. */
export const CORE_LAYERS: readonly (readonly string[])[] = [
  ['errors', 'clock'],
  // Values and what is computed from them alone: coercion, dates, binaries, folding, ordering.
  // The kernels worker threads run over shared columns, and the pool they run on (no thread here).
  ['values', 'parallel'],
  // The normalized model; sessions, the entity-set cache and the lock table need only the clock;
  // a project's roles file, only the errors.
  ['schema', 'sessions', 'sets', 'locks', 'roles'],
  // The application's class functions as declared and checked against the model (their registry).
  // Running one needs the public objects (`this`, the caller's datastore): that is orda's. Access:
  // the one decision of every permission (a roles file and the embedder's hooks) and who acts now.
  ['functions', 'access'],
  ['indexes'],
  // Tables, records, changes, the one commit, data loading.
  ['store'],
  // Transactions: writes staged per entity (immer) and applied by the store's one commit.
  ['txn'],
  // Grammar, binding, planner, executor, explain, orderings.
  ['query'],
  // The public objects: Datastore, DataClass, Entity, EntitySelection, PreparedQuery; the typed
  // form of the class functions on them, and the running of one.
  ['orda'],
  // The package's barrel.
  ['index.ts'],
]

const CORE_SRC = 'packages/core/src/'

/** The layer number of a core file (a path relative to the repository root), or undefined. */
export function layerOf(file: string): number | undefined {
  if (!file.startsWith(CORE_SRC)) return undefined
  const top = file.slice(CORE_SRC.length).split('/')[0]!
  const at = CORE_LAYERS.findIndex((layer) => layer.includes(top))
  return at < 0 ? undefined : at
}

const layerName = (n: number): string => CORE_LAYERS[n]!.join(', ')

/** Every module specifier a source text imports, with its line: `from '…'`, `import '…'`, `import('…')`. */
export function importsOf(text: string): { spec: string; line: number }[] {
  const out: { spec: string; line: number }[] = []
  const re =
    /\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const line = text.slice(0, m.index).split('\n').length
    out.push({ spec: (m[1] ?? m[2] ?? m[3])!, line })
  }
  return out
}

/**
 * The layering problems of one core file: each relative import that reaches a higher layer, or a
 * core folder that no layer lists. `file` is relative to the repository root.
 */
export function layerProblems(file: string, text: string): string[] {
  if (!file.startsWith(CORE_SRC) || file.endsWith('.test.ts')) return []
  const own = layerOf(file)
  if (own === undefined)
    return [`${file}: its folder is in no layer of tools/layers.ts (add it to CORE_LAYERS)`]
  const problems: string[] = []
  for (const { spec, line } of importsOf(text)) {
    if (!spec.startsWith('.')) continue
    const target = normalize(join(dirname(file), spec)).replace(/\.js$/, '.ts')
    const theirs = layerOf(target)
    if (theirs === undefined || theirs <= own) continue
    problems.push(
      `${file}:${line}: imports ${relative(CORE_SRC, target)} from a layer above its own ` +
        `(${layerName(own)} may import only from ${CORE_LAYERS.slice(0, own + 1)
          .map((l) => l.join('/'))
          .join(' → ')}; ${relative(CORE_SRC, target)} is in ${layerName(theirs)})`,
    )
  }
  return problems
}

/** One source file: its path relative to the repository root, and its text. */
export interface SourceFile {
  readonly path: string
  readonly text: string
}

// Tests and fixtures are outside the build (each package's tsconfig excludes them).
const notBuilt = (path: string): boolean => /\.(test|fixture)\.ts$/.test(path)

/**
 * Where a file under packages/<name>/src sits in its package's folder graph: the src/ directory,
 * and the node, a folder directly under src/ (`orda`) or a top file (`cli.ts`).
 */
function placeOf(path: string): { src: string; node: string } | undefined {
  const m = /^(packages\/[^/]+\/src)\/(.+)$/.exec(path)
  if (!m) return undefined
  return { src: m[1]!, node: m[2]!.split('/')[0]! }
}

// Folders are kebab-case names; files have an extension.
const isFolder = (node: string): boolean => !node.includes('.')

/** One package's folder graph: from node to node, each edge with the first import that makes it. */
type Edges = Map<string, Map<string, string>>

/**
 * The circles of folders in every package: for each group of folders and top files that reach one
 * another through a folder, one message naming the shortest circle through it, with an import
 * for each step. `files` are paths relative to the repository root.
 */
export function folderCycles(files: Iterable<SourceFile>): string[] {
  const graphs = new Map<string, Edges>()
  for (const file of files) {
    const from = placeOf(file.path)
    if (!from || notBuilt(file.path)) continue
    const edges = graphs.get(from.src) ?? new Map<string, Map<string, string>>()
    graphs.set(from.src, edges)
    for (const { spec, line } of importsOf(file.text)) {
      if (!spec.startsWith('.')) continue
      const target = normalize(join(dirname(file.path), spec)).replace(/\.js$/, '.ts')
      const to = placeOf(target)
      // Another package is reached by its name, never by a relative path into its src/.
      if (!to || to.src !== from.src || to.node === from.node) continue
      const out = edges.get(from.node) ?? new Map<string, string>()
      edges.set(from.node, out)
      if (!out.has(to.node))
        out.set(
          to.node,
          `${relative(from.src, file.path)}:${line} imports ${relative(from.src, target)}`,
        )
    }
  }
  const problems: string[] = []
  for (const [src, edges] of [...graphs].sort(([a], [b]) => a.localeCompare(b)))
    for (const group of stronglyConnected(edges)) {
      const folder = group.find(isFolder)
      if (group.length < 2 || folder === undefined) continue
      const circle = shortestCircle(edges, folder, new Set(group))
      const steps = circle.slice(1).map((to, i) => edges.get(circle[i]!)!.get(to)!)
      const others = group.filter((n) => !circle.includes(n))
      problems.push(
        `${src}/${circle.join(' -> ')}: folders import each other in a circle (${steps.join('; ')})` +
          (others.length > 0 ? `; the tangle also holds ${others.join(', ')}` : '') +
          '. Imports between folders go one way: move the shared piece down, or let the lower ' +
          'folder own an interface that the upper one implements',
      )
    }
  return problems
}

/**
 * The relative imports of `text` that load code when it runs: not `import type …`, nor an import
 * whose every name is `type X`, nor `export type … from`. (A type-only import is erased by the
 * compiler, so it cannot make a circle of modules at run time.)
 */
export function runtimeImportsOf(text: string): { spec: string; line: number }[] {
  const out: { spec: string; line: number }[] = []
  const re =
    /^(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^import\s*['"]([^'"]+)['"]/gm
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const spec = (m[4] ?? m[5])!
    if (m[2]) continue
    const braces = /^\{([^}]*)\}$/.exec((m[3] ?? '').trim())
    const names = braces?.[1]!
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean)
    if (names && names.length > 0 && names.every((n) => n.startsWith('type '))) continue
    out.push({ spec, line: text.slice(0, m.index).split('\n').length })
  }
  return out
}

/**
 * The run-time circles of files within each folder of every package (issue 51: core's orda/ had
 * grown to 21 files, where one change meant reading them all): one message a circle, naming its
 * shortest loop with the import of each step. Two files that need each other share a lower file instead,
 * or one reaches the other through an object it is given (a DataClass makes its selections).
 */
export function fileCycles(files: Iterable<SourceFile>): string[] {
  const graphs = new Map<string, Edges>()
  for (const file of files) {
    const place = placeOf(file.path)
    if (!place || notBuilt(file.path)) continue
    const folder = dirname(file.path)
    if (folder === place.src) continue
    const edges = graphs.get(folder) ?? new Map<string, Map<string, string>>()
    graphs.set(folder, edges)
    const from = relative(folder, file.path)
    for (const { spec, line } of runtimeImportsOf(file.text)) {
      if (!spec.startsWith('./')) continue
      const to = spec.slice(2).replace(/\.js$/, '.ts')
      if (to.includes('/') || notBuilt(to)) continue
      const out = edges.get(from) ?? new Map<string, string>()
      edges.set(from, out)
      if (!out.has(to)) out.set(to, `${from}:${line} imports ${to}`)
    }
  }
  const problems: string[] = []
  for (const [folder, edges] of [...graphs].sort(([a], [b]) => a.localeCompare(b)))
    for (const group of stronglyConnected(edges)) {
      if (group.length < 2) continue
      const circle = shortestCircle(edges, group[0]!, new Set(group))
      const steps = circle.slice(1).map((to, i) => edges.get(circle[i]!)!.get(to)!)
      const others = group.filter((n) => !circle.includes(n))
      problems.push(
        `${folder}: files import each other at run time in a circle (${steps.join('; ')})` +
          (others.length > 0 ? `; the tangle also holds ${others.join(', ')}` : '') +
          '. Move what both need to a lower file, import types only, or reach the other through ' +
          'an object it is given',
      )
    }
  return problems
}

/** The strongly connected groups of a graph (Tarjan), each sorted, in a stable order. */
function stronglyConnected(edges: Edges): string[][] {
  const nodes = [
    ...new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])]),
  ]
  nodes.sort()
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const groups: string[][] = []
  const visit = (v: string): void => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    onStack.add(v)
    for (const w of [...(edges.get(v)?.keys() ?? [])].sort()) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const group: string[] = []
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w)
      group.push(w)
      if (w === v) break
    }
    groups.push(group.sort())
  }
  for (const v of nodes) if (!index.has(v)) visit(v)
  return groups
}

/** The shortest way from `start` back to itself within `group` (breadth first), both ends named. */
function shortestCircle(edges: Edges, start: string, group: ReadonlySet<string>): string[] {
  const cameFrom = new Map<string, string>()
  const queue = [start]
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i]!
    for (const w of [...(edges.get(v)?.keys() ?? [])].sort()) {
      if (!group.has(w)) continue
      if (w === start) {
        const path = [v]
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!)
        return [...path, start]
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v)
        queue.push(w)
      }
    }
  }
  // Unreachable: every node of a strongly connected group reaches every other.
  throw new Error(`no circle through ${start}`)
}

/** The TypeScript sources under packages/<name>/src of the repository at `root`. */
export function sourceFiles(root: string): SourceFile[] {
  const out: SourceFile[] = []
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name === 'node_modules' || name === 'dist' || name === 'generated') continue
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (name.endsWith('.ts'))
        out.push({ path: relative(root, path), text: readFileSync(path, 'utf8') })
    }
  }
  const packages = join(root, 'packages')
  for (const name of readdirSync(packages).sort()) {
    const src = join(packages, name, 'src')
    if (isDirectory(src)) walk(src)
  }
  return out
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** Every problem of this module's checks in the repository at `root`: layers and circles. */
export function treeProblems(root: string): string[] {
  const files = sourceFiles(root)
  return [
    ...files.flatMap((f) => layerProblems(f.path, f.text)),
    ...folderCycles(files),
    ...fileCycles(files),
  ]
}

// `npx tsx tools/layers.ts [root]`: the checks alone, on this repository or another tree.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname)
  const problems = treeProblems(root)
  for (const p of problems) console.error(p)
  if (problems.length > 0) {
    console.error(`layers: ${problems.length} problem(s)`)
    process.exit(1)
  }
  console.log('layers: ok')
}
