/**
 * @module The files and folders of each package import one way, and the core's folders also keep to the
 * layers listed here, lowest first.
 *
 * - Every folder of every package (packages/<name>/src and each folder below it, at any depth):
 *   its rooms, the files in it and its subfolders (a subfolder with all it holds is one room),
 *   must not import each other in a circle. A subfolder is checked in turn as a folder of its
 *   own, so orda/feed/ and orda/objects/ each keep their files one way, and orda/ keeps feed/ and
 *   objects/ one way between them. A new folder needs no entry anywhere: the check follows the
 *   imports. Two graphs are checked:
 *   - run-time imports (values: `import { X }`, `import '…'`, `export { X } from`, `export *`,
 *     `await import('…')`, and `import { type X }`, which still loads its module; not
 *     `import type`, `export type … from` nor `import('…')` type expressions): no circle in any
 *     folder, with no exception;
 *   - all imports, type-only ones included: no circle either, but in the folders of
 *     PUBLIC_TYPE_CIRCLES, where public classes name each other in their signatures (4D's ORDA:
 *     entity.getDataClass(), dataClass.all()), the files on the folder's list may. A file off the
 *     list caught in such a circle fails, and so does a listed file in no circle (a list only
 *     shrinks). No other folder keeps a type circle: there is no allowance for one not yet undone.
 * - The core (packages/core/src) also lists its folders in layers (CORE_LAYERS): a file may import
 *   from its own layer or a layer below, never from one above, type imports counted.
 *
 * When two pieces need each other, the shared part moves down, the lower folder owns an interface
 * that the upper one implements, or (at run time) the upper one passes a function in.
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
import ts from 'typescript'

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

/** One relative or package import of a module, with its line and whether it is for types only. */
export interface ModuleImport {
  readonly spec: string
  readonly line: number
  /**
   * True for `import type`, `export type … from` and an `import('…')` type expression. False for
   * the rest: values, `import '…'`, `export * from`, `import * as`, `await import('…')` calls, and
   * an import whose every name is marked `type` (`import { type X }`): under the repository's
   * `verbatimModuleSyntax` it compiles to `import {} from`, which still loads the module.
   */
  readonly typeOnly: boolean
}

/**
 * Every module a source text imports, read with the TypeScript parser (comments and strings are
 * not imports), each with the line of its specifier and whether it is for types only.
 */
export function moduleImportsOf(text: string): ModuleImport[] {
  const source = ts.createSourceFile('source.ts', text, ts.ScriptTarget.Latest, false)
  const out: ModuleImport[] = []
  const add = (specifier: ts.Node, typeOnly: boolean): void => {
    if (!ts.isStringLiteralLike(specifier)) return
    const { line } = source.getLineAndCharacterOfPosition(specifier.getStart(source))
    out.push({ spec: specifier.text, line: line + 1, typeOnly })
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      add(node.moduleSpecifier, node.importClause?.isTypeOnly === true)
    } else if (ts.isExportDeclaration(node)) {
      if (node.moduleSpecifier === undefined) return
      add(node.moduleSpecifier, node.isTypeOnly)
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument
      if (ts.isLiteralTypeNode(arg)) add(arg.literal, true)
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined
    )
      add(node.arguments[0], false)
    else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    )
      add(node.moduleReference.expression, node.isTypeOnly)
    ts.forEachChild(node, visit)
  }
  visit(source)
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
 * Folders of a public API whose classes name each other in their public signatures, so their
 * files import each other's types in a circle, each with the exact files (relative to the folder)
 * that may be in it. Nothing else may join: a file off the list caught in a type circle fails the
 * lint, naming the import that pulls it in. A listed file that leaves every circle fails too, until
 * it is taken off: a list only shrinks. Run-time imports keep no circle here either (roomCycles).
 */
export const PUBLIC_TYPE_CIRCLES: ReadonlyMap<string, readonly string[]> = new Map<
  string,
  readonly string[]
>([
  // The running context and the objects its public signatures name, which name it back (one
  // public API, api/4d.api.md): FourDFunction.invoke and FunctionImpl take the Runtime, a
  // ClassObject constructs on it, it holds the ClassStore and the MethodRegistry of function
  // objects, and it runs the commands' code, typed by the CommandContext it implements
  // (CommandImpl, FormulaCompiler, WebServerHost). On those circles: current.ts (currentRuntime()
  // returns the Runtime, and a class object reads it), deep-copy.ts (a class copies with it; it
  // keeps function objects) and runtime-parts.ts (the commands' code and the classes given to the
  // Runtime, typed by it). The rooms of runtime/ above and below context/ import one way.
  [
    'packages/4d/src/runtime/context',
    [
      'class-object.ts',
      'class-store.ts',
      'command-context.ts',
      'current.ts',
      'deep-copy.ts',
      'function-object.ts',
      'methods.ts',
      'runtime-parts.ts',
      'runtime.ts',
    ],
  ],
  // 4D's ORDA, whose objects lead to each other in their public members: datastore.ts (Datastore,
  // DatastoreOf: ds.Employee), datastore-base.ts, data-class.ts (dataClass.all(), .get(), .new(),
  // getDataStore()), entity.ts (entity.getDataClass(), .getSelection(), .edit()), entity-draft.ts
  // (the EntityDraft of entity.edit(), draft.save()), entity-selection.ts (selection.first(),
  // .getDataClass()) and attribute-types.ts (AttributeValue, WriteValues: an attribute is an
  // Entity or an EntitySelection). With them, the public types their signatures name and which
  // name them back: changes-options.ts (ChangesOptions.render takes the Entity),
  // datastore-options.ts (DatastoreOptions.functions), define-functions.ts (FunctionsDef: each
  // function's `this`), entity-sets.ts (EntitySet, EntitySets: ds.entitySets), prepared-query.ts
  // (dataClass.prepare(): PreparedQuery) and queries.ts (runQuery, QueryResult).
  [
    'packages/core/src/orda/objects',
    [
      'attribute-types.ts',
      'changes-options.ts',
      'data-class.ts',
      'datastore-base.ts',
      'datastore-options.ts',
      'datastore.ts',
      'define-functions.ts',
      'entity-draft.ts',
      'entity-selection.ts',
      'entity-sets.ts',
      'entity.ts',
      'prepared-query.ts',
      'queries.ts',
    ],
  ],
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

/** What roomCycles lets stay: the public type circles. */
export interface CircleRules {
  /** Folder -> the rooms that may name each other in a type circle (PUBLIC_TYPE_CIRCLES). */
  readonly publicTypes: ReadonlyMap<string, readonly string[]>
}

const REPOSITORY_RULES: CircleRules = { publicTypes: PUBLIC_TYPE_CIRCLES }

const ADVICE =
  '. Imports within a folder go one way: move the shared piece (types too) down into a file or ' +
  'room of its own, or let the lower one own an interface the upper one implements'

const RUN_TIME_ADVICE =
  '. No folder keeps a circle of run-time imports: move the shared piece down into a file or ' +
  'room of its own, or pass the upper one in (a function, or an object typed by an interface)'

/**
 * The circles of rooms in every folder of every package. The rooms of a folder are its files and
 * its subfolders (each subfolder, all it holds, is one room, and is checked in turn as a folder
 * of its own). Two graphs are drawn in each folder:
 *
 * - run-time imports (type-only imports and `import('…')` type expressions left out): no circle
 *   anywhere, whatever the lists say;
 * - all imports, type-only ones included: no circle, but in a folder of `rules.publicTypes` the
 *   rooms on its list may name each other (a room off the list caught in a circle fails, and so
 *   does a listed room in no circle).
 *
 * Each failure names the shortest circle through the tangle with the import of each step. `files`
 * are paths relative to the repository root.
 *
 * Types count because a reader follows them as much as code: with a circle of types, no file of
 * the tangle can be read or changed alone (issue 67: 48 files of core's orda/ were one circle).
 */
export function roomCycles(
  files: Iterable<SourceFile>,
  rules: CircleRules = REPOSITORY_RULES,
): string[] {
  const typeGraphs = new Map<string, Edges>()
  const runGraphs = new Map<string, Edges>()
  const addEdge = (
    graphs: Map<string, Edges>,
    folder: string,
    from: string,
    to: string,
    at: string,
  ) => {
    const edges = graphs.get(folder) ?? new Map<string, Map<string, string>>()
    graphs.set(folder, edges)
    const out = edges.get(from) ?? new Map<string, string>()
    edges.set(from, out)
    if (!out.has(to)) out.set(to, at)
  }
  const seen: string[] = []
  for (const file of files) {
    seen.push(file.path)
    const src = /^packages\/[^/]+\/src\//.exec(file.path)?.[0]
    if (!src || notBuilt(file.path)) continue
    for (const { spec, line, typeOnly } of moduleImportsOf(file.text)) {
      if (!spec.startsWith('.')) continue
      const target = normalize(join(dirname(file.path), spec)).replace(/\.js$/, '.ts')
      // Another package is reached by its name, never by a relative path into its src/.
      if (!target.startsWith(src) || notBuilt(target)) continue
      const rooms = roomsOf(file.path, target)
      if (rooms.from === rooms.to) continue
      const at = `${relative(rooms.folder, file.path)}:${line} imports ${relative(rooms.folder, target)}`
      addEdge(typeGraphs, rooms.folder, rooms.from, rooms.to, at)
      if (!typeOnly) addEdge(runGraphs, rooms.folder, rooms.from, rooms.to, at)
    }
  }
  const inTree = (folder: string): boolean => seen.some((path) => path.startsWith(`${folder}/`))
  const problems: string[] = []

  // Run-time circles: none, in any folder.
  const runGroups = new Map<string, string[]>()
  for (const [folder, edges] of sorted(runGraphs))
    for (const group of stronglyConnected(edges)) {
      if (group.length < 2) continue
      runGroups.set(folder, [...(runGroups.get(folder) ?? []), group.join('\n')])
      problems.push(
        circleMessage(folder, edges, group, group[0]!, ' at run time') + RUN_TIME_ADVICE,
      )
    }

  // Type circles: only among the listed rooms of a public-API folder.
  const circled = new Map<string, Set<string>>()
  for (const [folder, edges] of sorted(typeGraphs))
    for (const group of stronglyConnected(edges)) {
      if (group.length < 2) continue
      const listed = rules.publicTypes.get(folder)
      if (listed !== undefined) {
        const inCircle = circled.get(folder) ?? new Set<string>()
        circled.set(folder, inCircle)
        for (const name of group) inCircle.add(name)
        for (const stranger of group.filter((name) => !listed.includes(name))) {
          const circle = shortestCircle(edges, stranger, new Set(group))
          const pull = edges.get(circle.at(-2)!)!.get(stranger)!
          problems.push(
            circleMessage(folder, edges, group, stranger, ', type imports counted') +
              `; ${stranger} is not on the folder's PUBLIC_TYPE_CIRCLES list in tools/layers.ts, ` +
              `and ${pull} pulls it in` +
              ADVICE,
          )
        }
        continue
      }
      // A tangle that is a run-time circle as a whole: said once, above.
      if (runGroups.get(folder)?.includes(group.join('\n'))) continue
      problems.push(
        circleMessage(folder, edges, group, group[0]!, ', type imports counted') + ADVICE,
      )
    }

  // A list only shrinks. Only folders of the tree at hand: a tree made for a test holds none of
  // this repository's.
  for (const [folder, listed] of sorted(rules.publicTypes)) {
    if (!inTree(folder)) continue
    for (const name of [...listed].sort())
      if (!circled.get(folder)?.has(name))
        problems.push(
          `${folder}/${name}: is in no type circle any more: take it off the folder's ` +
            'PUBLIC_TYPE_CIRCLES list in tools/layers.ts',
        )
  }
  return problems
}

/** A map's entries in the order of their keys. */
function sorted<V>(map: ReadonlyMap<string, V>): [string, V][] {
  return [...map].sort(([a], [b]) => a.localeCompare(b))
}

/**
 * `<folder>/<a> -> <b> -> <a>: import each other in a circle, <how> (<each step's import>)`: the
 * shortest circle through `start` within `group`, and the other rooms of the tangle.
 */
function circleMessage(
  folder: string,
  edges: Edges,
  group: readonly string[],
  start: string,
  how: string,
): string {
  const circle = shortestCircle(edges, start, new Set(group))
  const steps = circle.slice(1).map((to, i) => edges.get(circle[i]!)!.get(to)!)
  const others = group.filter((n) => !circle.includes(n))
  return (
    `${folder}/${circle.join(' -> ')}: import each other in a circle${how} ` +
    `(${steps.join('; ')})` +
    (others.length > 0 ? `; the tangle also holds ${others.join(', ')}` : '')
  )
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
