/**
 * @module @entistore/rest/hono — the REST interface as a Hono sub-application:
 *
 *     const rest = createRestHandler(ds)                  // basePath '/rest'
 *     app.route('/rest', honoRest(rest))                  // or app.route('/', honoRest(rest))
 *
 * A thin mapping onto the fetch handler (fetch/fetch-handler.ts): Hono's request is handed over as
 * the web Request it is, whatever runtime serves Hono (Node through @hono/node-server, Bun, Deno,
 * workers). The URL served is the whole request URL, so `basePath` is the public path and the
 * mount path must be it or a prefix of it (adapters/mount.ts); requests outside `basePath` go on to
 * the application's other routes.
 */
import { Hono } from 'hono'
import { mountProblem, serves, type MountableRest } from '../adapters/mount.js'
import { toFetchHandler, type FetchHandlerOptions } from '../fetch/fetch-handler.js'
import { splitTarget } from '../url/request-target.js'

export type { MountableRest } from '../adapters/mount.js'

/**
 * A Hono application serving `rest` for every method, to mount with `app.route`; `options` bound the
 * bodies it reads (those of the fetch handler).
 */
export function honoRest(rest: MountableRest, options: FetchHandlerOptions = {}): Hono {
  const fetch = toFetchHandler(rest, options)
  return new Hono().all('*', async (c, next) => {
    // The URL of a Request is absolute and already parsed: its split cannot fail.
    if (serves(rest, splitTarget(c.req.url)!.path)) return fetch(c.req.raw)
    const problem = mountProblem('Hono', c.req.routePath.replace(/\/?\*$/, ''), rest.basePath)
    if (problem !== undefined) throw new Error(problem)
    await next()
  })
}
