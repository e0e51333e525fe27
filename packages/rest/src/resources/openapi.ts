/**
 * @module `GET /rest/$openapi`: the OpenAPI 3.1 description of this interface (openapi/document.ts),
 * generated from the datastore's model and functions. Without a roles file or an `authorize` hook
 * it is the same for every session: made once a datastore and kept. With them, it shows what the
 * session may describe and execute, as `$catalog` does, and is made for each request.
 */
import type { FunctionRegistry } from '@entistore/core'
import { openApiDocument } from '../openapi/document.js'
import { ok, type Reply } from '../reply.js'
import type { RouteContext } from './context.js'

// The text of each datastore's description, by base path and cookie name. Kept by its functions
// (a datastore's model never changes; a server that reloads its functions makes new ones).
const made = new WeakMap<FunctionRegistry, Map<string, string>>()

export function openapi(ctx: RouteContext): Reply {
  const basePath = ctx.uris.base
  const options = { basePath, sessionCookieName: ctx.cookieName }
  const perms = ctx.perms
  if (perms)
    return ok(
      JSON.stringify(
        openApiDocument(ctx.ds, {
          ...options,
          shows: {
            dataClass: (dc) => perms.may('describe', dc.name),
            attribute: (dc, attr) => perms.mayDescribe(dc, attr),
            function: (fn) => perms.mayExecute(fn),
          },
        }),
      ),
    )
  let texts = made.get(ctx.ds.functions)
  if (!texts) made.set(ctx.ds.functions, (texts = new Map()))
  const id = `${basePath}\u0000${ctx.cookieName ?? ''}`
  let text = texts.get(id)
  if (text === undefined) texts.set(id, (text = JSON.stringify(openApiDocument(ctx.ds, options))))
  return ok(text)
}
