/**
 * @module The library packages' entries, bundled (issue 79: start-up). Run by `npm run build`
 * after tsc, from tsc's output:
 *
 *   tsx tools/bundle.ts            every package of BUNDLED
 *
 * Why: Node's ES module loader pays for each file (resolving, reading, linking): importing
 * `@entistore/core` as its ~260 files took 155–180 ms on the reference machine, bundled 33–43 ms,
 * and `@entistore/rest` 225–245 ms against 55 ms; `entistore serve` on 200k rows reached its URL
 * line 150–250 ms sooner.
 *
 * What: each export of the package (its `source` in package.json, `./src/x.ts`, names tsc's
 * `./dist/x.js`) becomes `./dist/bundle/x.js`, which the export's `default` names. The entries
 * share their modules through chunks (`dist/bundle/chunk-*.js`), so a module runs once however
 * many entries import it: one `DatastoreError` class, one registry. Other packages stay imports
 * (`@entistore/core` from `@entistore/rest` is the one copy every importer shares). An entry in
 * STANDALONE is bundled alone, without chunks: a small leaf that a caller imports without the
 * engine (the CLI's "did you mean", on a usage error). Nothing is minified: a stack trace names
 * the functions a reader finds in the bundle, and its source map the line of src/.
 *
 * tsc's per-file output stays in dist/ (its incremental build and the declaration files it
 * pairs with); the tarballs carry only the bundles and the declarations (package.json `files`).
 *
 * A build may run while processes load the bundles (a bench's smoke test builds when it finds the
 * dist stale, beside the other tests): so a file is written only when its bytes change, each by a
 * rename (a reader gets the old file or the new, never half of one), and the files of the last
 * build that this one no longer makes (chunks of other names) are removed last. A build of
 * unchanged sources touches nothing.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type BuildOptions, type OutputFile } from 'esbuild'
import { BUNDLED_STAMP } from './build-freshness.ts'

const root = fileURLToPath(new URL('../', import.meta.url))

/** The packages bundled: those whose modules import no file of their own by URL. */
export const BUNDLED = ['core', 'rest', '4d'] as const

/** Exports bundled alone, by package. */
const STANDALONE: Readonly<Record<string, readonly string[]>> = { core: ['./names'] }

interface ExportEntry {
  readonly source?: string
  readonly default?: string
}

/** The tsc output file of each bundled export, and the bundle file its `default` must name. */
export function entriesOf(pkgDir: string): BundledExport[] {
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as {
    exports: Record<string, ExportEntry | string>
  }
  const out: BundledExport[] = []
  for (const [name, entry] of Object.entries(pkg.exports)) {
    if (typeof entry === 'string' || entry.source === undefined) continue
    const path = entry.source.replace(/^\.\/src\//, '').replace(/\.ts$/, '.js')
    out.push({
      name,
      input: `./dist/${path}`,
      output: `./dist/bundle/${path}`,
      declared: entry.default,
    })
  }
  return out
}

/** One export: tsc's file, its bundle, and the `default` package.json gives it now. */
export interface BundledExport {
  readonly name: string
  readonly input: string
  readonly output: string
  readonly declared: string | undefined
}

const common: BuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  // tsc wrote the syntax the packages promise (tsconfig's target): left as it is.
  target: 'esnext',
  packages: 'external',
  outbase: 'dist',
  logLevel: 'warning',
  legalComments: 'none',
  // Through tsc's own maps to src/: a stack trace in the repository names the TypeScript line
  // (node --enable-source-maps). The tarballs leave maps out, as they leave out tsc's.
  sourcemap: 'linked',
}

async function bundle(name: string): Promise<void> {
  const dir = join(root, 'packages', name)
  const entries = entriesOf(dir)
  const alone = STANDALONE[name] ?? []
  for (const e of entries) {
    if (e.declared !== e.output)
      throw new Error(
        `packages/${name}/package.json: exports["${e.name}"].default must be "${e.output}"`,
      )
  }
  const shared = entries.filter((e) => !alone.includes(e.name))
  const built = await build({
    ...common,
    absWorkingDir: dir,
    entryPoints: shared.map((e) => e.input),
    splitting: true,
    outdir: 'dist/bundle',
    chunkNames: 'chunk-[hash]',
    write: false,
  })
  const files = [...built.outputFiles]
  for (const e of entries.filter((x) => alone.includes(x.name))) {
    const one = await build({
      ...common,
      absWorkingDir: dir,
      entryPoints: [e.input],
      outdir: 'dist/bundle',
      write: false,
    })
    files.push(...one.outputFiles)
  }
  writeChanged(join(dir, 'dist/bundle'), files)
  // Rewritten on every run, changed bundles or not: what tells a later build check that the
  // bundles are no older than tsc's output (build-freshness.ts).
  writeFileSync(join(dir, BUNDLED_STAMP), `${new Date().toISOString()}\n`)
}

/** Writes `files` into `out` as the module comment says; removes the other files `out` holds. */
export function writeChanged(
  out: string,
  files: readonly Pick<OutputFile, 'path' | 'contents'>[],
): void {
  const kept = new Set<string>()
  for (const f of files) {
    kept.add(f.path)
    if (existsSync(f.path) && Buffer.from(f.contents).equals(readFileSync(f.path))) continue
    mkdirSync(dirname(f.path), { recursive: true })
    const next = `${f.path}.${process.pid}.next`
    writeFileSync(next, f.contents)
    renameSync(next, f.path)
  }
  for (const name of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
    const path = join(out, name)
    if (!kept.has(path) && statSync(path).isFile()) rmSync(path, { force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  for (const name of BUNDLED) await bundle(name)
