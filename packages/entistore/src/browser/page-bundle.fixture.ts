/**
 * @module A module bundled for a page as a front end's bundler would (esbuild, for the browser, an
 * ES module, minified): what the browser tests run in Chromium and the bench weighs. `source`
 * bundles the packages' TypeScript sources (the tests, which need no build); without it, their
 * builds (what an app installs).
 */
import { build } from 'esbuild'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../../../', import.meta.url))

export interface PageBundleOptions {
  /** The packages' sources rather than their builds. @default false */
  readonly source?: boolean
  /** Imports left to the app (not bundled). */
  readonly external?: readonly string[]
  /** Where the packages are looked up (an app's folder). @default the repository */
  readonly resolveDir?: string
}

/** `contents` (a module's JavaScript, importing by package name) bundled for a page. */
export async function bundleForPage(
  contents: string,
  options: PageBundleOptions = {},
): Promise<{ readonly code: Uint8Array; readonly text: string; readonly warnings: string[] }> {
  const out = await build({
    stdin: { contents, resolveDir: options.resolveDir ?? root, loader: 'js' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    write: false,
    logLevel: 'silent',
    external: [...(options.external ?? [])],
    // What an app's build defines: msw reads it.
    define: { 'process.env.NODE_ENV': '"production"' },
    ...(options.source ? { conditions: ['source'] } : {}),
  })
  const file = out.outputFiles[0]!
  return { code: file.contents, text: file.text, warnings: out.warnings.map((w) => w.text) }
}

/** A page's bundle: its entry's code, every file it loads (by path), what the bundler warned of. */
export interface PageFiles {
  readonly text: string
  readonly files: Record<string, string>
  readonly warnings: unknown[]
}

/** `app` bundled for the page by esbuild, in one file. */
export async function esbuildBundle(
  app: string,
  options: PageBundleOptions = {},
): Promise<PageFiles> {
  const { text, warnings } = await bundleForPage(app, options)
  return { text, files: { '/app.js': text }, warnings }
}

/**
 * `app` bundled by Vite (Rollup underneath), its chunks apart (a dynamic import is a chunk of its
 * own), with every warning its logger and Rollup gave.
 */
export async function viteBundle(app: string, options: PageBundleOptions = {}): Promise<PageFiles> {
  const { build: viteBuild, createLogger } = await import('vite')
  // Inside the app's folder (the repository's by default), where its packages resolve.
  const cache = join(options.resolveDir ?? root, 'node_modules/.cache')
  mkdirSync(cache, { recursive: true })
  const dir = mkdtempSync(join(cache, 'entistore-vite-'))
  const warnings: unknown[] = []
  const logger = createLogger('warn')
  logger.warn = (m) => warnings.push(m)
  logger.warnOnce = (m) => warnings.push(m)
  logger.error = (m) => warnings.push(m)
  try {
    writeFileSync(join(dir, 'app.js'), app)
    const out = await viteBuild({
      root: dir,
      configFile: false,
      customLogger: logger,
      logLevel: 'warn',
      resolve: {
        conditions: [...(options.source ? ['source'] : []), 'module', 'browser', 'production'],
      },
      // What an app's build defines (a library build leaves it to the app): msw reads it.
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        write: false,
        lib: { entry: join(dir, 'app.js'), formats: ['es'], fileName: 'app' },
        rollupOptions: { onwarn: (w) => warnings.push(w.message) },
      },
    })
    const { output } = (Array.isArray(out) ? out[0]! : out) as {
      output: { fileName: string; code?: string; isEntry?: boolean }[]
    }
    const chunks = output.filter((o) => o.code !== undefined)
    const files = Object.fromEntries(chunks.map((o) => [`/${o.fileName}`, o.code!]))
    const entry = chunks.find((o) => o.isEntry)!
    return { text: entry.code!, files: { ...files, '/app.js': entry.code! }, warnings }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
