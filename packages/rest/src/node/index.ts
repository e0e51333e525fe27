/**
 * @module @entistore/rest/node — the REST interface on node:http:
 *
 *     const rest = createRestHandler(ds)
 *     const server = createServer(toNodeListener(rest))
 *     server.on('clientError', clientErrorListener(rest))
 *
 * Under Express or Fastify, use their adapters (`@entistore/rest/express`, `/fastify`), built on
 * this listener: they map mount paths and bodies already read. See docs/embedding.md and
 * docs/adapters.md.
 */
export { toNodeListener } from './listener.js'
export type { NodeListener, NodeListenerOptions } from './listener.js'
export { clientErrorListener } from './client-error.js'
export type { ClientErrorOptions } from './client-error.js'
export type { BackpressureOptions } from './write-reply.js'
export type { BodyCounters, BodyReadOptions } from '../body/bodies-in-flight.js'
export type { Schedule } from '../schedule.js'
