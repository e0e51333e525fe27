/**
 * @module The company demo behind a REST handler, built the same way every time: the handler the
 * conformance suite serves on both of its sides. It lives apart from the suite (no vitest import,
 * and the packages imported by their names) so that a child process running another runtime (Bun
 * on the sources, Deno on the built packages) can build the very same handler: given the same
 * manual clock and numbered session ids, two such handlers answer byte-identically.
 */
import { readFileSync } from 'node:fs'
import { createDatastore, ManualClock, type DataFile, type ModelJson } from '@entistore/core'
import { createRestHandler, type RestCore, type RestReply, type RestRequest } from '@entistore/rest'
// A type only, erased before any runtime resolves it.
import type { MountableRest } from '../adapters/mount.js'

/** The body limit of the handlers: small, so that a too-large body is cheap to send. */
export const MAX_BODY_BYTES = 20_000
/**
 * The limit of files sent as raw bytes (`$upload`): larger than a JSON body's, and smaller than
 * `express.raw()`'s own limit (100 KB), so that behind it too a file just past it is refused here.
 */
export const MAX_UPLOAD_BYTES = 50_000

const example = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../../examples/company/${name}`, import.meta.url), 'utf8'))
export const MODEL = example('model.json') as ModelJson
export const DATA = example('data.json') as DataFile

/** The time of the manual clock every company datastore of the suite starts at. */
export const COMPANY_START = Date.UTC(2024, 0, 1)

/**
 * A fresh company datastore behind a handler, the same every time it is called: a manual clock
 * at COMPANY_START, session ids numbered `S1, S2…`, the suite's body limits, and
 * `withTwoCookies` around it.
 */
export function companyRest(basePath = '/rest'): MountableRest {
  let sessions = 0
  const ds = createDatastore(MODEL, {
    data: structuredClone(DATA),
    clock: new ManualClock(COMPANY_START),
    sessions: { newId: () => `S${++sessions}` },
  })
  return withTwoCookies(
    createRestHandler(ds, {
      basePath,
      maxBodyBytes: MAX_BODY_BYTES,
      maxUploadBytes: MAX_UPLOAD_BYTES,
    }),
  )
}

/**
 * `rest`, which adds a second Set-Cookie header when a request asks for it (`x-two-cookies`), so
 * that keeping two headers apart can be tested too. The same wrapper serves the suite's reference
 * and `entistore serve` in the cluster's run (its `wrapCore`), so both sides add the same header.
 */
export function withTwoCookies<T extends RestCore>(rest: T): T {
  return {
    ...rest,
    respond: (request: RestRequest) => {
      const reply = rest.respond(request)
      if (request.headers['x-two-cookies'] === undefined) return reply
      // `isPending` inlined: Deno runs this on the built packages, which may predate it.
      return 'then' in reply ? reply.then(twoCookies) : twoCookies(reply)
    },
  }
}

function twoCookies(reply: RestReply): RestReply {
  const first = reply.headers['set-cookie'] ?? 'first=1; Path=/'
  return {
    ...reply,
    headers: { ...reply.headers, 'set-cookie': [first, 'second=2; Path=/'].flat() },
  }
}
