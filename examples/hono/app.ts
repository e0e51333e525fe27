/**
 * A Hono application with Entistore under /rest, next to its own routes. It runs wherever Hono
 * does: server.ts serves it on Node; `export default app` is what Bun and Deno serve.
 */
import { Hono } from 'hono'
import { createRestHandler, type Datastore } from 'entistore'
import { honoRest } from '@entistore/rest/hono'

/** The application serving `ds`. */
export function createApp(ds: Datastore): Hono {
  const rest = createRestHandler(ds) // basePath: '/rest'
  const app = new Hono()
  app.get('/hello', (c) => c.json({ hello: 'from Hono' }))
  app.route('/rest', honoRest(rest))
  return app
}
