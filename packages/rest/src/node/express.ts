/**
 * @module @entistore/rest/express — the REST interface in an Express 5 application:
 *
 *     const rest = createRestHandler(ds)          // basePath '/rest'
 *     app.use('/rest', expressRest(rest))         // or app.use(expressRest(rest))
 *
 * A thin mapping onto the node:http listener (node/listener.ts), which reads the body, queues
 * requests behind long ones and writes replies with backpressure. What Express changes is mapped
 * back: the target served is `req.originalUrl` (Express strips the mount path from `req.url`), so
 * `basePath` is the public path and the mount path must be it or a prefix of it (adapters/mount.ts);
 * requests outside `basePath` go on to the next route. A body parser in front (`express.json()`,
 * `express.text()`, `express.raw()`) may read the body first: its result is taken (a parsed value
 * written back as JSON, text and bytes as they are), and its errors on requests under `basePath`
 * become the `__ERROR` replies the listener gives for the same bodies (a JSON syntax error says
 * where; a body past the parser's limit is 413). What `express.urlencoded()` (or any parser) made of
 * a body of a type that does not claim JSON cannot be taken: the text is gone, and with it any JSON
 * a client sent under a form's type (its `&`, `=`, `+` and `%` were read as the form's syntax), so
 * it is refused 415 as a form that is not JSON is. Such clients need Entistore mounted before it.
 *
 * The types are structural, so a project without @types/express compiles against them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { datastoreError } from '@entistore/core'
import { mountProblem, serves, type MountableRest } from '../adapters/mount.js'
import { claimsJson } from '../body/read-json-body.js'
import { toNodeListener } from './listener.js'
import { Outbox, writeReply, type BackpressureOptions } from './write-reply.js'
import type { BodyReadOptions } from '../body/bodies-in-flight.js'
import { splitTarget } from '../url/request-target.js'

export type { MountableRest } from '../adapters/mount.js'

/** The part of Express's request the adapter reads: node's, and what Express and parsers add. */
export interface ExpressRequest extends IncomingMessage {
  /** The target as the client sent it, mount path included. */
  readonly originalUrl?: string
  /** The mount path this request went through. */
  readonly baseUrl?: string
  /** What a body parser in front made of the body. */
  readonly body?: unknown
}

/** Express's `next`. */
export type ExpressNext = (error?: unknown) => void

/** A middleware. */
export type ExpressHandler = (req: ExpressRequest, res: ServerResponse, next: ExpressNext) => void

/** An error middleware (four parameters: Express calls it only with an error). */
export type ExpressErrorHandler = (
  error: unknown,
  req: ExpressRequest,
  res: ServerResponse,
  next: ExpressNext,
) => void

/** Options of `expressRest`: those of the node listener's writes and body reads. */
export interface ExpressRestOptions extends BackpressureOptions, BodyReadOptions {}

/**
 * Handed to the listener in place of a body that a parser in front turned into a value although its
 * type does not claim JSON (a form): text that is not JSON, so that the core answers what it answers
 * for a form that is not JSON, byte for byte (415, naming the type). It is never echoed.
 */
const NOT_JSON = 'a body parsed by a parser in front'

/** What body-parser's errors carry (`type`, and `body` or `limit` for the two it maps). */
interface ParserError {
  readonly type?: unknown
  readonly body?: unknown
  readonly limit?: unknown
}

/**
 * The middleware serving `rest` in Express 5, and an error middleware that answers a body parser's
 * errors on its requests: pass both as they come (`app.use('/rest', expressRest(rest))`).
 */
export function expressRest(
  rest: MountableRest,
  options: ExpressRestOptions = {},
): [ExpressHandler, ExpressErrorHandler] {
  // The text of bodies a parser in front could not parse, handed to the core as sent so that it
  // answers them as it would have without the parser.
  const unparsed = new WeakMap<IncomingMessage, string>()
  const listener = toNodeListener(rest, {
    ...options,
    url: targetOf,
    parsedBody: (req) => {
      const text = unparsed.get(req)
      if (text !== undefined) return text
      const body = (req as ExpressRequest).body
      if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) return body
      return claimsJson(req.headers['content-type']) ? JSON.stringify(body) : NOT_JSON
    },
  })
  // For the one refusal written here, a body past the parser's limit: a small whole reply.
  const outbox = new Outbox(options)

  /**
   * Whether `req` is this interface's: a target under `basePath` or an HTTP request handler's (or
   * one the listener refuses).
   */
  const mine = (req: ExpressRequest): boolean => {
    const target = splitTarget(targetOf(req))
    return target === undefined || serves(rest, target.path)
  }

  const serve: ExpressHandler = (req, res, next) => {
    if (mine(req)) {
      listener(req, res)
      return
    }
    // Another route's request, unless the mount path cannot serve basePath at all.
    const problem = mountProblem('Express', req.baseUrl ?? '', rest.basePath)
    if (problem === undefined) next()
    else next(new Error(problem))
  }

  const answerParserError: ExpressErrorHandler = (error, req, res, next) => {
    if (!mine(req)) {
      next(error)
      return
    }
    const { type, body, limit } = (error ?? {}) as ParserError
    if (type === 'entity.parse.failed' && typeof body === 'string') {
      unparsed.set(req, body)
      listener(req, res)
    } else if (type === 'entity.too.large' && typeof limit === 'number') {
      const refused = { headers: req.headers, path: splitTarget(targetOf(req))?.path }
      writeReply(res, rest.refuse(datastoreError('BodyTooLarge', [limit]), refused), outbox)
    } else next(error)
  }

  return [serve, answerParserError]
}

function targetOf(req: IncomingMessage): string {
  return (req as ExpressRequest).originalUrl ?? req.url ?? '/'
}
