/**
 * @module A module bundled for a page as a front end's bundler would (esbuild, for the browser, an
 * ES module, minified): what the browser tests run in Chromium and the bench weighs. `source`
 * bundles the packages' TypeScript sources (the tests, which need no build); without it, their
 * builds (what an app installs).
 */
import { build } from 'esbuild'
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
