/**
 * @module `entistore/msw`: Entistore as MSW request handlers, a fake 4D backend with no server
 * (browser/msw-handlers.ts). An entry of its own that imports no Node module, for `setupWorker`
 * in a page and `setupServer` in a test runner; `msw` (3.x) is the application's own dependency.
 *
 * @example
 * // ds: a datastore made with @entistore/core (docs/in-the-browser.md)
 * import { restHandlers } from 'entistore/msw'
 * import { setupWorker } from 'msw/browser'
 * const handlers = restHandlers(ds, { baseUrl: 'https://api.test' })
 * await setupWorker(...handlers).start()
 *
 * // A 4D project: entistore bundle --project ./MyApp --out project.js
 * const fromProject = await projectHandlers((await import('./project.js')).default)
 */
export { projectHandlers, restHandlers } from './browser/msw-handlers.js'
export type {
  ProjectHandlersOptions,
  RestHandlers,
  RestHandlersOptions,
} from './browser/msw-handlers.js'
export { openProject, BUNDLE_FORMAT } from './browser/project-in-page.js'
export type { BundledProject, OpenProjectOptions } from './browser/project-in-page.js'
export type { ResetOptions } from './reset.js'
