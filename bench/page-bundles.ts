/**
 * @module What the engine weighs in a page (issue 81): the packages as a front end's bundler takes
 * them (esbuild, for the browser, minified, their published builds), minified and gzipped. The
 * goal is on what Entistore adds, core, rest and `entistore/msw` with msw's own code left out (the
 * app imports msw for its handlers whatever it mocks); the figure with the part of msw that
 * `entistore/msw` imports, and msw's browser half alone, are given beside it.
 */
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('..', import.meta.url))

/** A bundle the suite weighs: what an app imports, and what it leaves to the app. */
export interface PageBundle {
  readonly what: string
  readonly imports: string
  readonly external: readonly string[]
  readonly goalKb?: number
}

export const PAGE_BUNDLES: readonly PageBundle[] = [
  {
    what: 'core and rest (`createDatastore`, `createRestHandler`)',
    imports: `import { createDatastore } from '@entistore/core'
import { createRestHandler } from '@entistore/rest'
globalThis.used = [createDatastore, createRestHandler]`,
    external: [],
  },
  {
    what: 'core, rest and `entistore/msw`, msw left to the app',
    imports: `import { createDatastore } from '@entistore/core'
import { restHandlers } from 'entistore/msw'
globalThis.used = [createDatastore, restHandlers]`,
    external: ['msw'],
    goalKb: 250,
  },
  {
    what: 'the same with the part of msw `entistore/msw` imports',
    imports: `import { createDatastore } from '@entistore/core'
import { restHandlers } from 'entistore/msw'
globalThis.used = [createDatastore, restHandlers]`,
    external: [],
  },
  {
    what: 'msw/browser alone (`setupWorker`, `http`), for scale',
    imports: `import { setupWorker } from 'msw/browser'
import { http } from 'msw'
globalThis.used = [setupWorker, http]`,
    external: [],
  },
]

export interface PageBundleSize {
  readonly minified: number
  readonly gzipped: number
  /** What esbuild warned of (none is the goal: a page's bundle builds clean). */
  readonly warnings: readonly string[]
}

/** `bundle` built for a page from the packages' builds (`dist`), and its sizes in bytes. */
export async function weigh(bundle: PageBundle): Promise<PageBundleSize> {
  const out = await build({
    stdin: { contents: bundle.imports, resolveDir: root, loader: 'js' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    write: false,
    logLevel: 'silent',
    external: [...bundle.external],
    define: { 'process.env.NODE_ENV': '"production"' },
  })
  const code = out.outputFiles[0]!.contents
  return {
    minified: code.length,
    gzipped: gzipSync(code, { level: 9 }).length,
    warnings: out.warnings.map((w) => w.text),
  }
}
