import Fastify, { type FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import { companyRest, conformance, send, type Served } from './conformance.fixture.js'
import type { MountableRest } from '../adapters/mount.js'
import { fastifyRest } from './fastify.js'
import { pendingReplies } from './pending.fixture.js'

async function serveFastify(
  rest: MountableRest,
  register: (app: FastifyInstance, rest: MountableRest) => Promise<unknown> | unknown,
): Promise<Served> {
  const app = Fastify()
  // A route of the application's own, with Fastify's JSON parser: untouched by the plugin.
  app.post('/echo', async (request) => request.body)
  await register(app, rest)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() }
}

conformance('Fastify, no prefix', (rest) =>
  serveFastify(rest, (app) => app.register(fastifyRest, { rest })),
)
conformance('Fastify, prefix /rest', (rest) =>
  serveFastify(rest, (app) => app.register(fastifyRest, { rest, prefix: '/rest' })),
)
pendingReplies('Fastify, prefix /rest', (rest) =>
  serveFastify(rest, (app) => app.register(fastifyRest, { rest, prefix: '/rest' })),
)
conformance(
  'Fastify, prefix /api inside a plugin with prefix /x, basePath /x/api/v1',
  (rest) =>
    serveFastify(rest, (app) =>
      app.register(
        async (scope) => {
          await scope.register(fastifyRest, { rest, prefix: '/api' })
        },
        { prefix: '/x' },
      ),
    ),
  { basePath: '/x/api/v1' },
)

describe('Fastify plugin', () => {
  it("leaves the application's other routes and their body parsing alone", async () => {
    const served = await serveFastify(companyRest(), (app, rest) =>
      app.register(fastifyRest, { rest }),
    )
    try {
      const echo = await send(served.url, {
        method: 'POST',
        target: '/echo',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      })
      expect([echo.status, echo.body.toString()]).toEqual([200, '{"a":1}'])
      expect((await send(served.url, { target: '/elsewhere' })).status).toBe(404)
      expect((await send(served.url, { target: '/rest/Employee(1)' })).status).toBe(200)
    } finally {
      await served.close()
    }
  })

  it('fails its registration when the prefix cannot serve basePath', async () => {
    const app = Fastify()
    await expect(
      app.register(fastifyRest, { rest: companyRest(), prefix: '/api' }).ready(),
    ).rejects.toThrow("mounted at '/api' in Fastify but serves '/rest'")
    await app.close()
  })
})
