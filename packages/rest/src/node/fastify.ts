/**
 * @module @entistore/rest/fastify — the REST interface as a Fastify 5 plugin:
 *
 *     const rest = createRestHandler(ds)                  // basePath '/rest'
 *     await app.register(fastifyRest, { rest })           // or { rest, prefix: '/rest' }
 *
 * A thin mapping onto the node:http listener (node/listener.ts): each request is hijacked from
 * Fastify and handed over raw, so the listener reads the body within `maxBodyBytes`, queues
 * requests behind long ones and writes replies with backpressure, as without Fastify. The plugin
 * is encapsulated (no fastify-plugin): in its scope Fastify's body parsers are replaced by one that
 * leaves every body unread, which changes nothing for the application's other routes. Hooks of
 * the enclosing scopes (onRequest, preHandler) still run first.
 *
 * It serves `basePath` under whatever prefix it is registered with: no prefix, `basePath` itself,
 * or a prefix of it (adapters/mount.ts); another prefix fails the registration with the reason.
 */
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify'
import { mountProblem, type MountableRest } from '../adapters/mount.js'
import { toNodeListener } from './listener.js'
import type { BackpressureOptions } from './write-reply.js'
import type { BodyReadOptions } from '../body/bodies-in-flight.js'

export type { MountableRest } from '../adapters/mount.js'

/** Options of `app.register(fastifyRest, options)`, besides Fastify's own (`prefix`). */
export interface FastifyRestOptions extends BackpressureOptions, BodyReadOptions {
  /** The handler to serve: what `createRestHandler` returns. */
  readonly rest: MountableRest
}

// Every method reaches the handler, which answers the ones it does not serve 405 with `Allow`,
// as without Fastify (Fastify would answer them 404).
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE']

/** The Fastify 5 plugin serving `options.rest`. */
export const fastifyRest: FastifyPluginCallback<FastifyRestOptions> = (instance, options, done) => {
  const { rest, writeTimeoutMs, maxUnsentBytes, maxBodyBytesInFlight, bodyTimeoutMs } = options
  const prefix = instance.prefix.replace(/\/+$/, '')
  const problem = mountProblem('Fastify', prefix || '/', rest.basePath)
  if (problem !== undefined) {
    done(new Error(problem))
    return
  }
  const listener = toNodeListener(rest, {
    writeTimeoutMs,
    maxUnsentBytes,
    maxBodyBytesInFlight,
    bodyTimeoutMs,
  })
  // Bodies stay in the request stream for the listener: it reads them within its own limit.
  instance.removeAllContentTypeParsers()
  instance.addContentTypeParser('*', (_request, _payload, parsed) => parsed(null))
  const handler = (request: FastifyRequest, reply: FastifyReply): void => {
    reply.hijack()
    listener(request.raw, reply.raw)
  }
  // The rest of basePath below the prefix: `/rest` with no prefix, '' under `/rest`.
  const below = rest.basePath.slice(prefix.length)
  instance.route({ method: METHODS, url: below === '' ? '/' : below, handler })
  instance.route({ method: METHODS, url: `${below}/*`, handler })
  // Registered at the root, it also answers the paths its HTTP request handlers take; any other
  // path is Fastify's not-found, as before.
  if (prefix === '' && below !== '' && rest.handles)
    instance.route({
      method: METHODS,
      url: '/*',
      handler: (request, reply) => {
        if (rest.handles!(request.raw.url?.split('?')[0] ?? '/')) handler(request, reply)
        else reply.callNotFound()
      },
    })
  done()
}
