/**
 * @module @entistore/rest — the Entity Data REST interface over a @entistore/core datastore, as a
 * `fetch(Request) → Response` handler. The node:http bridge is in `@entistore/rest/node`.
 */
export { createRestHandler } from './handler.js'
export type { RestHandler, RestHandlerOptions } from './handler.js'
export { STATUS_BY_CATEGORY, toErrorReply } from './errors/to-error-body.js'
export type { ErrorReply } from './errors/to-error-body.js'
export { parseRestUrl } from './url/parse-rest-url.js'
export type { ParsedUrl, RestTarget } from './url/parse-rest-url.js'
export { parseQueryString, unquote } from './url/query-string.js'
export { sessionCookieName } from './sessions/cookie.js'
