/**
 * @module Whether `npm run build` left a package's dist current: every file a build compiles has
 * its output, newer than the source, and (for a bundled package) the bundles were made after tsc's
 * last output. Asked by the bench before it measures the built CLI (bench/engine.ts) and by the
 * tests that start the CLI in a child process, which run the built CLI when it is current and the
 * sources under tsx when it is not (packages/entistore/src/persist/cli-process.fixture.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * The file tools/bundle.ts rewrites at the end of every run, whether or not a bundle's bytes
 * changed (it writes a bundle only when they do, so a bundle's own time says nothing of when it
 * was last made). Outside dist/bundle: no tarball carries it.
 */
export const BUNDLED_STAMP = 'dist/.bundled'

/**
 * The files a build compiles (or copies: the generated parsers' .js). A `test-projects` folder
 * holds projects the tests start, whose .js is no output's source: counting it, a clean clone's
 * build looked stale, and each bench smoke test ran `npm run build` again beside the others.
 */
function* sourceFiles(dir: string, skipped: readonly string[]): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      if (name !== 'test-projects') yield* sourceFiles(path, skipped)
    } else if (/\.(ts|js)$/.test(name) && !skipped.some((end) => name.endsWith(end))) yield path
  }
}

/**
 * The file endings a package's tsconfig leaves out of its dist (`"exclude": ["src/**\/*.test.ts",
 * "src/**\/*.fixture.ts"]`), and declarations: such files have no output to be older than. Read
 * from the tsconfig, so that the check counts exactly the files a build compiles.
 */
function skippedEndings(pkgDir: string): string[] {
  const config = JSON.parse(readFileSync(join(pkgDir, 'tsconfig.json'), 'utf8')) as {
    exclude?: string[]
  }
  const anywhere = 'src/**/*'
  return [
    '.d.ts',
    ...(config.exclude ?? [])
      .filter((p) => p.startsWith(anywhere))
      .map((p) => p.slice(anywhere.length)),
  ]
}

/**
 * What makes `pkgDir`'s dist stale, relative to the repository: each source file whose output is
 * missing or older than it, and, when the package has bundles (dist/bundle), dist/bundle itself
 * if its stamp is missing or older than one of tsc's outputs. Empty when the dist is current.
 */
export function staleIn(pkgDir: string): string[] {
  const src = join(pkgDir, 'src')
  const stale: string[] = []
  let newestOutput = 0
  for (const file of sourceFiles(src, skippedEndings(pkgDir))) {
    const out = join(pkgDir, 'dist', relative(src, file)).replace(/\.ts$/, '.js')
    const made = existsSync(out) ? statSync(out).mtimeMs : -1
    if (made < statSync(file).mtimeMs) stale.push(relative(root, file))
    newestOutput = Math.max(newestOutput, made)
  }
  if (existsSync(join(pkgDir, 'dist/bundle'))) {
    const stamp = join(pkgDir, BUNDLED_STAMP)
    if (!existsSync(stamp) || statSync(stamp).mtimeMs < newestOutput)
      stale.push(relative(root, join(pkgDir, 'dist/bundle')))
  }
  return stale
}

/** The four packages, lowest first. */
const PACKAGES = ['core', '4d', 'rest', 'entistore'] as const

/** What makes any package's dist stale (staleIn of each); empty when `npm run build` is current. */
export function staleBuild(): string[] {
  return PACKAGES.flatMap((p) => staleIn(join(root, 'packages', p)))
}
