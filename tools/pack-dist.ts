/**
 * @module The packages' prepack and postpack (issue 79: an install ≤ 10 MB). `strip` rewrites each
 * JavaScript file of the package's dist/ as the tarball should carry it (tools/packed-js.ts: no
 * comments, tab indentation), keeping the file as tsc wrote it in a stash; `restore` puts the
 * stashed files back once npm has packed. The .d.ts files keep their doc comments (the editors'
 * hovers and the API reports' text), but only those the package's public entries reach are packed
 * (`prune`): tsc writes one for every module, and an internal module's types that no public type
 * names are dead weight in a user's node_modules (430 of the four packages' 810 declarations,
 * 1.7 MB on disk in blocks of 4 kB).
 *
 *   npm pack / npm publish, in packages/<name>:   tsx ../../tools/pack-dist.ts strip|restore
 *
 * Restored rather than left stripped: the working tree's dist/ is the tests', the benches' and the
 * CLI's, and its source maps (which the tarballs leave out) describe the files tsc wrote; a
 * stripped file would send a stack trace to the wrong line of src/. The stashed bytes come back as
 * they were, and the modification time to the microsecond, so packing leaves no trace for a build
 * to see.
 *
 * Several packs may run at once (CI packs in three checks side by side): one package's packs take
 * turns (`lock`, from its `strip` to its `restore`), since npm's packer fails when a file changes
 * size while it reads it (it did: a restore beside put the comments back in the middle of a pack).
 * A pack may stop between its two scripts, leaving the lock: one older than LOCK_STALE_MS is taken
 * over. And each step still stands on its own: `strip` leaves a file already stripped as it is
 * (the printing is idempotent) and keeps its first stash; `restore` puts a file back only when it
 * still holds what `strip` wrote (a build since then wins), and any pack's `restore` finishes an
 * earlier one's. Every write is a rename, so a pack beside reads one version of a file or the
 * other, never half of one: at worst it packs a file with its comments.
 * The stash: node_modules/.cache/entistore-pack/<tarball name>/, one JSON file a stripped file.
 */
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

/** One stripped file's stash: what to put back, and what `strip` wrote in its place. */
interface Stashed {
  /** The file as tsc wrote it. */
  readonly original: string
  readonly mtimeMs: number
  /** The SHA-256 of the stripped text `strip` wrote. */
  readonly packed: string
}

const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex')

/** Writes `file` by a rename from a file beside it, with `mtimeMs` as its modification time. */
function replace(file: string, text: string, mtimeMs: number): void {
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, text)
  // In seconds as a number, not a Date: a Date would round the time down to the millisecond.
  utimesSync(temporary, mtimeMs / 1000, mtimeMs / 1000)
  renameSync(temporary, file)
}

/** The .js files under `dir`, relative to it. */
function jsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
}

/** The stash's entries under `dir`, relative to it (one `<file>.json` a stripped or pruned file). */
function stashEntries(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter(
        (entry) =>
          entry.isFile() && (entry.name.endsWith('.js.json') || entry.name.endsWith('.d.ts.json')),
      )
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
  } catch {
    return [] // no stash: nothing was stripped
  }
}

/** A lock left by a pack that stopped before its restore is taken over past this age. */
export const LOCK_STALE_MS = 120_000

/**
 * Takes the lock `dir` (made by the one whose mkdir succeeds), waiting while another pack holds
 * it, at most until it is LOCK_STALE_MS old (`now`: the clock, for tests).
 */
export function lock(dir: string, now: () => number = Date.now): void {
  for (;;) {
    try {
      mkdirSync(dir)
      return
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    }
    const since = statSync(dir, { throwIfNoEntry: false })?.mtimeMs
    if (since !== undefined && now() - since > LOCK_STALE_MS)
      rmSync(dir, { recursive: true, force: true })
    // A pack takes a few seconds: looked at again in a tenth of one, the thread asleep.
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100)
  }
}

/** Gives the lock `dir` back. */
export const unlock = (dir: string): void => rmSync(dir, { recursive: true, force: true })

/** What a .js file becomes in the tarball: tools/packed-js.ts's packedJs. */
type Pack = (text: string, fileName: string) => string

/**
 * Strips every .js file of `dist` by `pack` (packedJs), stashing each original in `stash`; returns
 * the bytes before and after. `pack` is passed in so that `restore` never loads TypeScript (a
 * second of each package's postpack).
 */
export function strip(dist: string, stash: string, pack: Pack): { before: number; after: number } {
  let before = 0
  let after = 0
  for (const file of jsFiles(dist)) {
    const path = join(dist, file)
    const bytes = readFileSync(path)
    const text = bytes.toString('utf8')
    before += bytes.length
    // Not UTF-8 (tsc writes nothing else): packed as it is, rather than changed by the decoding.
    if (!Buffer.from(text, 'utf8').equals(bytes)) {
      after += bytes.length
      continue
    }
    const packed = pack(text, path)
    after += Buffer.byteLength(packed)
    // Already as packed: an earlier pack stopped before its restore, or another runs beside.
    if (packed === text) continue
    const { mtimeMs } = statSync(path)
    const entry: Stashed = { original: text, mtimeMs, packed: sha256(packed) }
    const entryPath = join(stash, `${file}.json`)
    mkdirSync(dirname(entryPath), { recursive: true })
    replace(entryPath, JSON.stringify(entry), Date.now())
    replace(path, packed, mtimeMs)
  }
  return { before, after }
}

/** What `prune` records as the packed text of a declaration it took out: none, the file absent. */
const ABSENT = 'absent'

/** The files under `dir` whose names end with `suffix`, relative to it. */
const filesEnding = (dir: string, suffix: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))

/** The .d.ts files a package.json's exports (and `types`) name, relative to the package. */
export function typeEntries(manifest: { exports?: unknown; types?: string }): string[] {
  const out = new Set<string>()
  const walk = (e: unknown): void => {
    if (typeof e === 'string') {
      if (e.endsWith('.d.ts')) out.add(e.replace(/^\.\//, ''))
    } else if (e !== null && typeof e === 'object') for (const v of Object.values(e)) walk(v)
  }
  walk(manifest.exports)
  if (manifest.types !== undefined) out.add(manifest.types.replace(/^\.\//, ''))
  return [...out]
}

/** A declaration file's module specifiers (imports, re-exports, `import()` types). */
type ImportsOf = (text: string) => readonly string[]

/**
 * Takes out of `dist` (stashed in `stash`, as `strip` does) every .d.ts that the declarations in
 * `entries` (paths under `dist`) do not reach by relative imports: a user's compiler never opens
 * them. `importsOf` is TypeScript's scanner (passed in, as `strip`'s printer is). Returns how
 * many declarations stay and how many went.
 */
export function prune(
  dist: string,
  stash: string,
  entries: readonly string[],
  importsOf: ImportsOf,
): { kept: number; pruned: number } {
  const reached = new Set<string>()
  const queue = entries.map((e) => join(dist, e))
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (reached.has(file)) continue
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      continue // a specifier of a package's own JSON or one tsc did not emit: nothing to keep
    }
    reached.add(file)
    for (const specifier of importsOf(text)) {
      if (!specifier.startsWith('.')) continue // another package's
      const target = join(dirname(file), specifier)
      queue.push(target.replace(/\.js$/, '.d.ts'), join(target, 'index.d.ts'))
    }
  }
  let pruned = 0
  for (const file of filesEnding(dist, '.d.ts')) {
    const path = join(dist, file)
    if (reached.has(path)) continue
    const { mtimeMs } = statSync(path)
    const entry: Stashed = { original: readFileSync(path, 'utf8'), mtimeMs, packed: ABSENT }
    const entryPath = join(stash, `${file}.json`)
    mkdirSync(dirname(entryPath), { recursive: true })
    replace(entryPath, JSON.stringify(entry), Date.now())
    rmSync(path)
    pruned++
  }
  return { kept: reached.size, pruned }
}

/**
 * Puts back every stashed file of `dist` that still holds what `strip` wrote, and every pruned one
 * still absent; empties `stash`.
 */
export function restore(dist: string, stash: string): { restored: number; kept: number } {
  let restored = 0
  let kept = 0
  for (const entryFile of stashEntries(stash)) {
    const entryPath = join(stash, entryFile)
    let entry: Stashed
    try {
      entry = JSON.parse(readFileSync(entryPath, 'utf8')) as Stashed
    } catch {
      continue // restored and removed by a pack beside
    }
    const path = join(dist, entryFile.slice(0, -'.json'.length))
    let current: Buffer | undefined
    try {
      current = readFileSync(path)
    } catch {
      current = undefined // pruned, or gone since (a clean build): nothing to put back
    }
    const asPacked =
      entry.packed === ABSENT
        ? current === undefined
        : current !== undefined && sha256(current) === entry.packed
    if (asPacked) {
      replace(path, entry.original, entry.mtimeMs)
      restored++
    } else kept++
    rmSync(entryPath, { force: true })
  }
  removeEmptyFolders(stash)
  return { restored, kept }
}

/** Removes `dir` and its folders if they hold no file (a pack beside may be filling them). */
function removeEmptyFolders(dir: string): void {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return
  }
  for (const name of names) {
    const path = join(dir, name)
    if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) removeEmptyFolders(path)
  }
  try {
    rmdirSync(dir)
  } catch {
    // not empty: another pack's entries
  }
}

/** The stash of the package in `packageDir`, under the repository's node_modules/.cache. */
function stashOf(packageDir: string): string {
  const { name } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    name: string
  }
  const root = fileURLToPath(new URL('..', import.meta.url))
  // As npm names the tarball: @entistore/core -> entistore-core.
  return join(root, 'node_modules/.cache/entistore-pack', name.replace('@', '').replace('/', '-'))
}

const mb = (bytes: number): string => (bytes / 1e6).toFixed(2)

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const step = process.argv[2]
  // npm runs a package's scripts in its folder.
  const packageDir = process.cwd()
  const dist = join(packageDir, 'dist')
  const stash = stashOf(packageDir)
  if (!existsSync(dist)) {
    console.error(`pack-dist: no ${dist}: npm run build first`)
    process.exit(1)
  }
  // On stderr: `npm pack --json` (tools/release/lint-packages.mjs) reads stdout as JSON.
  if (step === 'strip') {
    const { packedJs } = await import('./packed-js.ts')
    const { default: ts } = await import('typescript')
    // TypeScript's own scan of a file's imports: a pattern would match `from './x'` in a comment.
    const moduleSpecifiers = (text: string): string[] =>
      ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName)
    mkdirSync(dirname(stash), { recursive: true })
    lock(`${stash}.lock`)
    const { before, after } = strip(dist, stash, packedJs)
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
      exports?: unknown
      types?: string
    }
    const entries = typeEntries(manifest).map((e) => relative('dist', e))
    const { kept, pruned } = prune(dist, stash, entries, moduleSpecifiers)
    console.error(
      `pack-dist: ${dist}: JavaScript ${mb(before)} -> ${mb(after)} MB; ` +
        `${kept} declarations packed, ${pruned} no public entry reaches left out`,
    )
  } else if (step === 'restore') {
    const { restored, kept } = restore(dist, stash)
    unlock(`${stash}.lock`)
    console.error(
      `pack-dist: ${dist}: ${restored} files restored, ${kept} left as a build rewrote them`,
    )
  } else {
    console.error('usage: tsx tools/pack-dist.ts strip|restore (in a package folder)')
    process.exitCode = 2
  }
}
