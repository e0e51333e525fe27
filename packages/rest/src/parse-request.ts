/**
 * @module A request's URL read against the handler's settings: an HTTP request handler's path, else
 * the REST interface's target and its parameters, within the query limits. A failure is kept, not
 * thrown: it is answered once the request's session is known.
 */
import { fail } from '@entistore/core'
import type { RestRequest } from './exchange.js'
import { readParams, type RestParams } from './url/params.js'
import { refuseJsonServerHabits } from './url/json-server-habits.js'
import { checkQueryLimits } from './url/query-limits.js'
import { parseRestUrl, type RestTarget } from './url/parse-rest-url.js'
import { parseQueryString } from './url/query-string.js'
import type { HandlerSettings } from './handler-settings.js'

/** A request's URL parsed, or the error parsing it raised (answered once the session is known). */
export type Parsed = { target: RestTarget; params: RestParams } | { error: unknown }

/** The target and parameters of `request`, or the error reading them raised. */
export function parseRequest(
  { handlers, noParams, basePath, paramLimits, queryLimits }: HandlerSettings,
  request: RestRequest,
): Parsed {
  try {
    // A path outside the interface that a handler takes (a verb none takes: 405).
    const handled = handlers.target(request.method, request.path, request.query)
    if (handled !== undefined) return { target: handled, params: noParams }
    const parsed = parseRestUrl(request.path, request.query, basePath)
    if (!parsed) fail('UnknownResource', [request.path])
    const raw = parsed.search === '' ? undefined : parseQueryString(parsed.search)
    const params = raw === undefined ? noParams : readParams(raw, paramLimits)
    if (raw !== undefined) {
      checkQueryLimits(params, queryLimits)
      // A read of a dataclass: json-server's `_sort`, `_page`… would be ignored, silently.
      if (
        parsed.target.kind === 'dataClass' &&
        (request.method === 'GET' || request.method === 'HEAD')
      )
        refuseJsonServerHabits(raw)
    }
    return { target: parsed.target, params }
  } catch (error) {
    return { error }
  }
}
