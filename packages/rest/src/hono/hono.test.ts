import { createAdaptorServer } from '@hono/node-server'
import { Hono } from 'hono'
import type { Server } from 'node:http'
import { describe, expect, it } from 'vitest'
import { companyRest, conformance, listen, send } from '../node/conformance.fixture.js'
import type { MountableRest } from '../adapters/mount.js'
import { honoRest } from './index.js'
import { pendingReplies } from '../node/pending.fixture.js'

/** Serves a Hono app on node:http, without replacing the global Request and Response. */
const serveHono = (app: Hono) =>
  listen(createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false }) as Server)

// @hono/node-server gives a reply without a Content-Type this one (the 204 to OPTIONS).
const onNode = { defaultContentType: 'text/plain; charset=UTF-8' }

const withOwnRoutes = (mount: (app: Hono) => void): Hono => {
  const app = new Hono()
  app.get('/health', (c) => c.text('ok'))
  mount(app)
  return app
}

conformance(
  'Hono, app.route("/rest")',
  (rest: MountableRest) => serveHono(withOwnRoutes((app) => app.route('/rest', honoRest(rest)))),
  onNode,
)
conformance(
  'Hono, app.route("/")',
  (rest: MountableRest) => serveHono(withOwnRoutes((app) => app.route('/', honoRest(rest)))),
  onNode,
)
pendingReplies('Hono, app.route("/rest")', (rest: MountableRest) =>
  serveHono(withOwnRoutes((app) => app.route('/rest', honoRest(rest)))),
)
conformance(
  'Hono, app.route("/api") with basePath /api/v1',
  (rest: MountableRest) => serveHono(withOwnRoutes((app) => app.route('/api', honoRest(rest)))),
  { ...onNode, basePath: '/api/v1' },
)

describe('Hono route', () => {
  it("leaves the application's other routes alone", async () => {
    const served = await serveHono(withOwnRoutes((app) => app.route('/', honoRest(companyRest()))))
    try {
      const health = await send(served.url, { target: '/health' })
      expect([health.status, health.body.toString()]).toEqual([200, 'ok'])
      expect((await send(served.url, { target: '/elsewhere' })).status).toBe(404)
    } finally {
      await served.close()
    }
  })

  it('says so when the mount path cannot serve basePath', async () => {
    const app = new Hono()
    app.route('/api', honoRest(companyRest()))
    let seen: Error | undefined
    app.onError((error, c) => {
      seen = error
      return c.text(error.message, 500)
    })
    const res = await app.request('/api/Employee(1)')
    expect(res.status).toBe(500)
    expect(seen?.message).toContain("mounted at '/api' in Hono but serves '/rest'")
  })
})
