import express from 'express'
import { createServer } from 'node:http'
import { describe, expect, it } from 'vitest'
import { companyRest, conformance, json, listen, send, type Served } from './conformance.fixture.js'
import type { MountableRest } from '../adapters/mount.js'
import { expressRest } from './express.js'
import { pendingReplies } from './pending.fixture.js'

type Setup = (app: express.Express, rest: MountableRest) => void

function serveExpress(setup: Setup): (rest: MountableRest) => Promise<Served> {
  return (rest) => {
    const app = express()
    setup(app, rest)
    return listen(createServer(app))
  }
}

// Every body parser Express ships, in front of Entistore: it takes what they made of the body.
const parsers = (app: express.Express): void => {
  app.use(express.json())
  app.use(express.text())
  app.use(express.raw({ type: 'application/octet-stream' }))
  app.use(express.urlencoded())
}

conformance(
  'Express under /rest',
  serveExpress((app, rest) => app.use('/rest', expressRest(rest))),
)
conformance(
  'Express at /',
  serveExpress((app, rest) => app.use(expressRest(rest))),
)
pendingReplies(
  'Express under /rest behind express.json()',
  serveExpress((app, rest) => {
    app.use(express.json())
    app.use('/rest', expressRest(rest))
  }),
)
conformance(
  'Express under /rest behind express.json(), text(), raw(), urlencoded()',
  serveExpress((app, rest) => {
    parsers(app)
    app.use('/rest', expressRest(rest))
  }),
)
conformance(
  'Express at / behind express.json()',
  serveExpress((app, rest) => {
    app.use(express.json())
    app.use(expressRest(rest))
  }),
)
conformance(
  'Express in a router under /api, basePath /api/v1',
  serveExpress((app, rest) => {
    // The parser in the same router: a parser's error reaches only the error middleware of its
    // own router (Express skips mounted routers when it looks for one).
    const router = express.Router()
    router.use(express.json())
    router.use('/v1', expressRest(rest))
    app.use('/api', router)
  }),
  { basePath: '/api/v1' },
)

/** The app's own error middleware (four parameters: Express calls it only with an error). */
function onError(
  app: express.Express,
  handle: (error: Error, res: express.Response) => void,
): void {
  app.use(
    (error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
      handle(error, res),
  )
}

describe('Express adapter', () => {
  const withApp = async (setup: Setup, run: (url: string) => Promise<void>): Promise<void> => {
    const served = await serveExpress(setup)(companyRest())
    try {
      await run(served.url)
    } finally {
      await served.close()
    }
  }

  it("passes requests outside basePath to the application's next routes", async () => {
    await withApp(
      (app, rest) => {
        app.use(expressRest(rest))
        app.get('/health', (_req, res) => {
          res.send('ok')
        })
      },
      async (url) => {
        const health = await send(url, { target: '/health' })
        expect([health.status, health.body.toString()]).toEqual([200, 'ok'])
        expect((await send(url, { target: '/rest/Employee(1)' })).status).toBe(200)
      },
    )
  })

  it('says so when the mount path cannot serve basePath', async () => {
    const errors: unknown[] = []
    await withApp(
      (app, rest) => {
        app.use('/api', expressRest(rest))
        onError(app, (error, res) => {
          errors.push(error)
          res.status(500).send(error.message)
        })
      },
      async (url) => {
        const answer = await send(url, { target: '/api/Employee(1)' })
        expect(answer.status).toBe(500)
        expect(answer.body.toString()).toContain("mounted at '/api' in Express but serves '/rest'")
        expect(errors).toHaveLength(1)
      },
    )
  })

  it("answers a body past the parser's own limit 413 with that limit", async () => {
    await withApp(
      (app, rest) => {
        app.use(express.json({ limit: 100 }))
        app.use('/rest', expressRest(rest))
      },
      async (url) => {
        const answer = await send(url, {
          method: 'POST',
          target: '/rest/Employee?$method=update',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ lastName: 'x'.repeat(200) }),
        })
        expect(answer.status).toBe(413)
        expect(json(answer).__ERROR[0]).toMatchObject({
          errCode: 9033,
          message: 'The request body exceeds the limit of 100 bytes',
        })
      },
    )
  })

  it('says the body was read before when a middleware read it and kept nothing', async () => {
    await withApp(
      (app, rest) => {
        // Reads the stream to its end and keeps nothing (a logger, a proxy, a checksum…).
        app.use((req, _res, next) => {
          req.resume()
          req.once('end', () => next())
        })
        app.use('/rest', expressRest(rest))
      },
      async (url) => {
        const answer = await send(url, {
          method: 'POST',
          target: '/rest/Employee?$method=update',
          headers: { 'content-type': 'application/json' },
          body: '{"lastName":"Lost"}',
        })
        expect(answer.status).toBe(400)
        const error = json(answer).__ERROR[0]
        expect(error.errCode).toBe(9030)
        expect(error.message).toContain('it was read before it reached Entistore')
        // A GET has no body to lose.
        expect((await send(url, { target: '/rest/Employee(1)' })).status).toBe(200)
      },
    )
  })

  it("leaves a parser's other errors to Express, and errors of other paths alone", async () => {
    await withApp(
      (app, rest) => {
        app.use(express.json())
        app.use('/rest', expressRest(rest))
        onError(app, (error, res) => {
          res.status(499).send(`app: ${(error as { type?: string }).type}`)
        })
      },
      async (url) => {
        const charset = await send(url, {
          method: 'POST',
          target: '/rest/Employee?$method=update',
          headers: { 'content-type': 'application/json; charset=koi8-r' },
          body: '{}',
        })
        expect([charset.status, charset.body.toString()]).toEqual([499, 'app: charset.unsupported'])
        const other = await send(url, {
          method: 'POST',
          target: '/elsewhere',
          headers: { 'content-type': 'application/json' },
          body: '{',
        })
        expect([other.status, other.body.toString()]).toEqual([499, 'app: entity.parse.failed'])
      },
    )
  })
})
