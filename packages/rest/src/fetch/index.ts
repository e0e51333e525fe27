/**
 * @module @entistore/rest/fetch — the REST interface as `fetch(Request) → Promise<Response>`, the
 * shape Bun, Deno, Cloudflare Workers and other service-worker style runtimes serve:
 *
 *     const rest = createRestHandler(ds)
 *     export default { fetch: toFetchHandler(rest) }      // rest.fetch is the same function
 *
 * The handler reads the URL, the headers and the body (within `maxBodyBytes`, and its own bounds of
 * the bodies in flight: `toFetchHandler(rest, { maxBodyBytesInFlight, bodyTimeoutMs })`), answers through the
 * plain core, and streams a big reply a chunk at a time as the runtime reads it.
 */
export { toFetchHandler, toResponse } from './fetch-handler.js'
export type { FetchHandler, FetchHandlerOptions } from './fetch-handler.js'
