/**
 * Which build of @entistore/core the benchmarks measure.
 *
 * - `compiled` (default): the current packages/core/src compiled by tsc, as `npm run build` does,
 *   into node_modules/.cache/entistore-bench/ (incremental: ≈1.5 s when little changed). Always up
 *   to date, writes nothing under packages/, and runs the code users run.
 * - `source`: packages/core/src through tsx (what `--conditions=source` resolves). tsx compiles
 *   with esbuild's `keepNames`, which wraps every named closure in `__name(fn, "…")` (an
 *   `Object.defineProperty` each time a closure is created). The engine creates closures on every
 *   query, so this inflates per-query costs (≈2.5× on one `dc.query` lookup on this machine).
 * - `dist`: packages/core/dist as last built by `npm run build` (may be stale: a warning says so).
 */
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { staleBuild, staleIn } from '../tools/build-freshness.ts'

export type Core = typeof import('@entistore/core')
export const ENGINE_CHOICES = ['compiled', 'source', 'dist'] as const
export type EngineChoice = (typeof ENGINE_CHOICES)[number]

/**
 * `core.createDatastore(model, { data })` with every index built, as a benchmark compares it: a
 * load leaves each index to its first use (`ds.buildIndexes()`), and a measure of the load, of
 * its memory or of a first query must not leave that cost out.
 */
export function loadedDatastore(
  core: Core,
  ...args: Parameters<Core['createDatastore']>
): ReturnType<Core['createDatastore']> {
  const ds = core.createDatastore(...args)
  ds.buildIndexes()
  return ds
}

const root = fileURLToPath(new URL('..', import.meta.url))
const coreDir = join(root, 'packages/core')
const srcDir = join(coreDir, 'src')
const cacheDir = join(root, 'node_modules/.cache/entistore-bench/core')

/** Compiles packages/core/src with its own tsconfig into the cache; returns a warning or ''. */
function compileCore(): string {
  const outDir = join(cacheDir, 'dist')
  mkdirSync(outDir, { recursive: true })
  // ESM output, resolved from the repository's node_modules (lru-cache, immer) by walking up.
  writeFileSync(join(cacheDir, 'package.json'), '{ "type": "module", "private": true }\n')
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  let warning = ''
  try {
    execFileSync(
      process.execPath,
      [
        tsc,
        '-p',
        join(coreDir, 'tsconfig.json'),
        '--outDir',
        outDir,
        '--tsBuildInfoFile',
        join(cacheDir, 'tsbuildinfo'),
        '--incremental',
        '--composite',
        'false',
        '--declaration',
        'false',
        '--declarationMap',
        'false',
        '--sourceMap',
        'false',
      ],
      { stdio: 'pipe' },
    )
  } catch (e) {
    // Type errors still emit JavaScript (noEmitOnError is off): measure it, but say so.
    const out = String((e as { stdout?: Buffer }).stdout ?? '').split('\n')[0]
    warning = ` (WARNING: tsc reported errors, e.g. ${out})`
  }
  // The generated parser is plain JavaScript beside the sources (npm run build copies it too).
  const generated = join(srcDir, 'query/grammar/generated')
  cpSync(generated, join(outDir, 'query/grammar/generated'), { recursive: true })
  return warning
}

export async function loadEngine(choice: EngineChoice): Promise<{ core: Core; label: string }> {
  switch (choice) {
    case 'compiled': {
      const t0 = Date.now()
      const warning = compileCore()
      const url = pathToFileURL(join(cacheDir, 'dist/index.js')).href
      return {
        core: (await import(url)) as Core,
        label:
          `compiled: packages/core/src through tsc → ${relative(root, cacheDir)}/dist ` +
          `(${((Date.now() - t0) / 1000).toFixed(1)} s)${warning}`,
      }
    }
    case 'dist': {
      const stale = staleIn(coreDir)
      const url = pathToFileURL(join(coreDir, 'dist/index.js')).href
      const warn = stale.length
        ? ` (WARNING: older than ${stale.length} source file(s), e.g. ${stale[0]}: npm run build)`
        : ''
      return { core: (await import(url)) as Core, label: `dist: packages/core/dist${warn}` }
    }
    case 'source':
      return {
        core: await import('@entistore/core'),
        label:
          'source: packages/core/src via tsx (keepNames: a defineProperty per closure created)',
      }
  }
}

export type BuildChoice = 'auto' | 'always' | 'never'
export const BUILD_CHOICES: readonly BuildChoice[] = ['auto', 'always', 'never']

/**
 * Makes packages/{core,4d,rest,entistore}/dist current for the suites that run the real CLI (which
 * runs from dist/) and the 4d-language suite: `auto` runs `npm run build` when a source file is newer than its output,
 * `always` runs it anyway, `never` only reports. Returns one line saying what was found and done.
 * A failing build (another session's work in progress, say) is reported, not fatal: tsc still
 * emits, and the line says the measured CLI may not be the sources.
 */
export function ensurePackagesBuilt(choice: BuildChoice): string {
  const stale = staleBuild()
  const what = stale.length
    ? `dist older than ${stale.length} source file(s), e.g. ${stale[0]}`
    : 'dist current'
  if (choice === 'never' || (choice === 'auto' && stale.length === 0))
    return `build: ${what}${stale.length ? ' (WARNING: measuring the old dist; --build=auto builds it)' : ''}`
  const t0 = Date.now()
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  try {
    execFileSync(npm, ['run', 'build'], { cwd: root, stdio: 'pipe' })
  } catch (e) {
    const out = `${String((e as { stdout?: Buffer }).stdout ?? '')}`
      .split('\n')
      .find((l) => /error/i.test(l))
    return `build: ${what}; npm run build FAILED (${out?.trim() ?? 'no message'}): the CLI runs whatever dist it left`
  }
  const left = staleBuild().length
  return (
    `build: ${what}; ran npm run build (${((Date.now() - t0) / 1000).toFixed(1)} s)` +
    (left ? `; ${left} source file(s) still newer than dist (unchanged output)` : '')
  )
}
