/**
 * @module @entistore/rest/node — the REST interface on node:http:
 *
 *     const rest = createRestHandler(ds)
 *     const server = createServer(toNodeListener(rest))
 *     server.on('clientError', clientErrorListener(rest))
 *
 * Express under a mount path: `app.use('/rest', toNodeListener(rest, { url: (req) => req.originalUrl }))`,
 * with no body parser in front (the body must reach the listener unread). See docs/embedding.md.
 */
export { toNodeListener } from './listener.js'
export type { NodeListener, NodeListenerOptions } from './listener.js'
export { clientErrorListener } from './client-error.js'
export type { ClientErrorOptions } from './client-error.js'
export type { BackpressureOptions } from './write-reply.js'
