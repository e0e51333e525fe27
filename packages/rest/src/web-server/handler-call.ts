/**
 * @module A request an HTTP request handler takes (http-handlers.ts), answered by its function:
 * a function of a shared singleton (a project's 4D class `shared singleton Class constructor`, or
 * a functions module's `singletons`), called with a `4D.IncomingMessage` (core's
 * IncomingMessage) as the request's session, as a REST call runs (its budget, its time limit,
 * the roles file's `promote`). The function need not be exposed: 4D advises against it.
 *
 * What it returns is the reply: an OutgoingMessage as it is (status, headers, body), nothing
 * (undefined, null) 204 with no body, any other value as JSON. A class that is no shared
 * singleton answers 404 "Cannot find singleton", a function it lacks 404 "Cannot find singleton
 * function", in 4D's words (HandlerSingletonNotFound, HandlerFunctionNotFound).
 */
import { fail, IncomingMessage, OutgoingMessage, singletonStateFor } from '@entistore/core'
import { resultJson } from '../call/result.js'
import type { Answer, Reply } from '../reply.js'
import { sessionOwner, type RouteContext } from '../resources/context.js'
import { outgoing, runWith } from '../resources/functions.js'
import type { RestTarget } from '../url/parse-rest-url.js'

type HandlerTarget = Extract<RestTarget, { kind: 'httpHandler' }>

/** The reply of the handler `target` names, for the request in `ctx`. */
export function httpHandlerCall(ctx: RouteContext, target: HandlerTarget): Answer {
  const { handler } = target
  const registry = ctx.ds.functions
  if (
    registry.list('singleton', handler.class).length === 0 ||
    registry.isSessionSingleton(handler.class)
  )
    fail('HandlerSingletonNotFound', [])
  const fn =
    registry.find('singleton', handler.class, handler.method) ?? fail('HandlerFunctionNotFound', [])
  const message = new IncomingMessage({
    verb: ctx.method,
    path: target.path,
    query: target.query,
    headers: ctx.headers,
    body: ctx.bytes(),
  })
  // Its writes are the session's, as a REST write is (a lock another session holds refuses them).
  return ctx.ds.runAs(sessionOwner(ctx), () =>
    runWith(
      ctx,
      fn,
      singletonStateFor(ctx.ds, handler.class, ctx.session),
      [message],
      handlerReply,
    ),
  )
}

const NO_CONTENT: Reply = { status: 204, body: new Uint8Array(0), file: { type: 'text/plain' } }

/** What a handler's function returned, as the reply (see the module note). */
function handlerReply(ctx: RouteContext, value: unknown): Reply {
  if (OutgoingMessage.is(value)) return outgoing(value)
  if (value === undefined || value === null) return NO_CONTENT
  const json = new TextEncoder().encode(resultJson(value, ctx.writer, ctx.perms))
  return { status: 200, body: json, file: { type: 'application/json; charset=utf-8' } }
}
