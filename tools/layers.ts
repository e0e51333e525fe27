/**
 * @module The layers of `@entistore/core`, lowest first, and the check that keeps them one-way: a
 * file may import from its own layer or a layer below, never from one above (type-only imports
 * and `import('…')` type expressions included). When two pieces need each other, the shared part
 * moves down, or the lower layer owns an interface that the upper one implements.
 *
 * Tests are not checked: a test beside the query engine may build its fixture through the public
 * Datastore, as a user would.
 */
import { dirname, join, normalize, relative } from 'node:path'

/** The layers of packages/core/src, lowest first; a layer is a list of top-level folders or files. */
export const CORE_LAYERS: readonly (readonly string[])[] = [
  ['errors', 'clock'],
  // Values and what is computed from them alone: coercion, dates, binaries, folding, ordering.
  ['values'],
  // The normalized model; sessions, the entity-set cache and the lock table need only the clock;
  // a project's roles file, only the errors.
  ['schema', 'sessions', 'sets', 'locks', 'roles'],
  // The application's class functions as declared and checked against the model (their registry).
  // Running one needs the public objects (`this`, the caller's datastore): that is orda's.
  ['functions'],
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
