import { createAdaptorServer } from '@hono/node-server'
import type { Server } from 'node:http'
import { conformance, listen } from '../node/conformance.fixture.js'
import { pendingReplies } from '../node/pending.fixture.js'
import type { RestCore } from '../exchange.js'
import { toFetchHandler } from './index.js'

// The fetch handler as Bun, Deno or a worker would run it, put on node:http by the smallest
// Request/Response bridge at hand (@hono/node-server's, without Hono's router), which gives a reply
// without a Content-Type (the 204 to OPTIONS) its own.
const serveFetch = (rest: RestCore) =>
  listen(
    createAdaptorServer({ fetch: toFetchHandler(rest), overrideGlobalObjects: false }) as Server,
  )

conformance('fetch', serveFetch, { defaultContentType: 'text/plain; charset=UTF-8' })
pendingReplies('fetch', serveFetch)
