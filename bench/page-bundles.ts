/**
 * @module What the engine weighs in a page (issue 81): the packages as a front end's bundler takes
 * them (esbuild, for the browser, minified, their published builds), minified and gzipped. The
 * goal is on what Entistore adds, core, rest and `entistore/msw` with msw's own code left out (the
 * app imports msw for its handlers whatever it mocks); the figure with the part of msw that
 * `entistore/msw` imports, and msw's browser half alone, are given beside it.
 */
import { gzipSync } from 'node:zlib'
import { bundleForPage } from '../packages/entistore/src/browser/page-bundle.fixture.ts'

/** A bundle the suite weighs: what an app imports, and what it leaves to the app. */
export interface PageBundle {
  readonly what: string
  readonly imports: string
  readonly external: readonly string[]
  readonly goalKb?: number
}

const WITH_MSW_ENTRY = `import { createDatastore } from '@entistore/core'
import { restHandlers } from 'entistore/msw'
globalThis.used = [createDatastore, restHandlers]`

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
    imports: WITH_MSW_ENTRY,
    external: ['msw'],
    goalKb: 250,
  },
  {
    what: 'the same with a 4D project (`projectHandlers`: the 4D language, which a bundler that splits makes a chunk of its own)',
    imports: `import { projectHandlers } from 'entistore/msw'
globalThis.used = [projectHandlers]`,
    external: ['msw'],
  },
  {
    what: 'the same with the part of msw `entistore/msw` imports',
    imports: WITH_MSW_ENTRY,
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
  const { code, warnings } = await bundleForPage(bundle.imports, { external: bundle.external })
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length, warnings }
}
