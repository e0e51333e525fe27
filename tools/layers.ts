/**
 * @module The files and folders of each package import one way, and the core's folders also keep to the
 * layers listed here, lowest first.
 *
 * - Every folder of every package (packages/<name>/src and each folder below it, at any depth):
 *   its rooms, the files in it and its subfolders (a subfolder with all it holds is one room),
 *   must not import each other in a circle, type-only imports included. A subfolder is checked
 *   in turn as a folder of its own, so orda/feed/ and orda/objects/ each keep their files one
 *   way, and orda/ keeps feed/ and objects/ one way between them. A new folder needs no entry
 *   anywhere: the check follows the imports. CIRCLES_ALLOWED lists the tangles not yet undone.
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
 * Folders whose rooms still import each other in a circle, each with the number of rooms in its
 * tangle today (issue 67 found 14 such tangles when type imports began to count). A listed tangle
 * may shrink but not grow; an entry whose circle is gone must leave the list. Empty is the goal.
 */
export const CIRCLES_ALLOWED: ReadonlyMap<string, number> = new Map<string, number>([
  ['packages/4d/src/orda', 15],
  // Seven of its subfolders and operators.ts.
  ['packages/4d/src/runtime', 8],
  // Five rooms of orda/: objects and the rooms whose public types its classes' signatures name
  // and which name the classes back (ChangesOptions, DatastoreOptions, FunctionsDef, the query
  // and entity-set types). calls/, restrict/, members/ and writes/ name what they need.
  ['packages/core/src/orda', 5],
  // Datastore (and its base), DataClass, Entity, EntityDraft, EntitySelection and the attribute
  // types name each other in their public members.
  ['packages/core/src/orda/objects', 7],
])

/** One folder's graph of rooms: from room to room, each edge with the first import that makes it. */
type Edges = Map<string, Map<string, string>>

/**
 * The rooms of `folder` that an import from `from` to `to` joins, both paths relative to the
 * repository root: the names, within the deepest folder holding both files, of the file or
 * subfolder each lies in (`feed` for orda/feed/hub.ts seen from orda/).
 */
function roomsOf(from: string, to: string): { folder: string; from: string; to: string } {
  const a = from.split('/')
  const b = to.split('/')
  let i = 0
  while (i < a.length - 1 && i < b.length - 1 && a[i] === b[i]) i++
  return { folder: a.slice(0, i).join('/'), from: a[i]!, to: b[i]! }
}

/**
 * The circles of rooms in every folder of every package, type-only imports included: the rooms
 * of a folder are its files and its subfolders (each subfolder, all it holds, is one room, and is
 * checked in turn as a folder of its own). For each tangle, one message naming the shortest circle
 * through it with the import of each step. `files` are paths relative to the repository root;
 * `allowed` maps a folder to the size its tangle may keep (CIRCLES_ALLOWED).
 *
 * Types count because a reader follows them as much as code: with a circle of types, no file of
 * the tangle can be read or changed alone (issue 67: 48 files of core's orda/ were one circle).
 */
export function roomCycles(
  files: Iterable<SourceFile>,
  allowed: ReadonlyMap<string, number> = CIRCLES_ALLOWED,
): string[] {
  const graphs = new Map<string, Edges>()
  const seen: string[] = []
  for (const file of files) {
    seen.push(file.path)
    const src = /^packages\/[^/]+\/src\//.exec(file.path)?.[0]
    if (!src || notBuilt(file.path)) continue
    for (const { spec, line } of importsOf(file.text)) {
      if (!spec.startsWith('.')) continue
      const target = normalize(join(dirname(file.path), spec)).replace(/\.js$/, '.ts')
      // Another package is reached by its name, never by a relative path into its src/.
      if (!target.startsWith(src) || notBuilt(target)) continue
      const rooms = roomsOf(file.path, target)
      if (rooms.from === rooms.to) continue
      const edges = graphs.get(rooms.folder) ?? new Map<string, Map<string, string>>()
      graphs.set(rooms.folder, edges)
      const out = edges.get(rooms.from) ?? new Map<string, string>()
      edges.set(rooms.from, out)
      if (!out.has(rooms.to))
        out.set(
          rooms.to,
          `${relative(rooms.folder, file.path)}:${line} imports ${relative(rooms.folder, target)}`,
        )
    }
  }
  const problems: string[] = []
  const tangled = new Set<string>()
  for (const [folder, edges] of [...graphs].sort(([a], [b]) => a.localeCompare(b)))
    for (const group of stronglyConnected(edges)) {
      if (group.length < 2) continue
      tangled.add(folder)
      const room = allowed.get(folder)
      if (room !== undefined && group.length <= room) continue
      const circle = shortestCircle(edges, group[0]!, new Set(group))
      const steps = circle.slice(1).map((to, i) => edges.get(circle[i]!)!.get(to)!)
      const others = group.filter((n) => !circle.includes(n))
      problems.push(
        `${folder}/${circle.join(' -> ')}: import each other in a circle, type imports counted ` +
          `(${steps.join('; ')})` +
          (others.length > 0 ? `; the tangle also holds ${others.join(', ')}` : '') +
          (room !== undefined
            ? `; ${group.length} rooms where CIRCLES_ALLOWED allows ${room}`
            : '') +
          '. Imports within a folder go one way: move the shared piece (types too) down into a ' +
          'file or room of its own, or let the lower one own an interface the upper one implements',
      )
    }
  // Only folders of the tree at hand: a tree made for a test holds none of this repository's.
  for (const folder of [...allowed.keys()].sort())
    if (!tangled.has(folder) && seen.some((path) => path.startsWith(`${folder}/`)))
      problems.push(
        `${folder}: has no circle any more: take it off CIRCLES_ALLOWED in tools/layers.ts`,
      )
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
  return [...files.flatMap((f) => layerProblems(f.path, f.text)), ...roomCycles(files)]
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
