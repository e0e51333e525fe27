/**
 * @module @entistore/rest — the Entity Data REST interface over a @entistore/core datastore. The
 * core is `respond(RestRequest) → RestReply` on plain values, synchronous but for calls of async
 * functions (a Promise of the reply then: `isPending`); `fetch(Request) → Promise<Response>` (Hono,
 * Bun, Deno, workers) is built on it here, the node:http listener in `@entistore/rest/node`.
 */
export { createRestHandler } from './handler.js'
export type { RestHandler, RestHandlerOptions } from './handler.js'
export { isLoopbackOrigin } from './cors.js'
export { isUnder, serves } from './adapters/mount.js'
export type { MountableRest } from './adapters/mount.js'
export type { CorsOptions } from './cors.js'
export { hostOf, loopbackTwins, NOTICED_ORIGINS, serverAt } from './cors-notices.js'
export type { CorsNotice } from './cors-notices.js'
export { isPending, isStream, readsBody, takesBody } from './exchange.js'
export type { ChangesStreamOptions } from './resources/context.js'
export { readRequestNames } from './url/request-names.js'
export type { RequestNames } from './url/request-names.js'
export type {
  RestBody,
  RestCore,
  RestHeaders,
  RestReply,
  RestRequest,
  RestStream,
} from './exchange.js'
export { withRespond } from './exchange.js'
export { toFetchHandler, toResponse } from './fetch/fetch-handler.js'
export type { FetchHandler, FetchHandlerOptions } from './fetch/fetch-handler.js'
export type { BodyCounters, BodyReadOptions } from './body/bodies-in-flight.js'
export { STATUS_BY_CATEGORY, toErrorReply } from './errors/to-error-body.js'
export type { ErrorReply } from './errors/to-error-body.js'
export { lineAndColumn, readJsonSyntaxError } from './body/json-syntax-error.js'
export type { JsonSyntaxErrorPlace } from './body/json-syntax-error.js'
export { openApiDocument } from './openapi/document.js'
export type {
  OpenApiDocument,
  OpenApiOptions,
  OpenApiShows,
  OpenApiSource,
} from './openapi/document.js'
export { parseRestUrl } from './url/parse-rest-url.js'
export type { ParsedUrl, RestTarget } from './url/parse-rest-url.js'
export { parseQueryString, unquote } from './url/query-string.js'
export { jsonServerNamesOf } from './url/json-server-habits.js'
export { splitTarget } from './url/request-target.js'
export type { RequestTarget } from './url/request-target.js'
export { readCookie, sessionCookieName } from './sessions/cookie.js'
export { lockOwnerOf } from './resources/context.js'
export { IncomingMessage, OutgoingMessage } from '@entistore/core'
export { checkHttpHandlers } from './web-server/http-handlers.js'
export type { HttpHandlerDef } from './web-server/http-handlers.js'
export { checkHttpRules } from './web-server/http-rules.js'
export type { HttpRuleDef } from './web-server/http-rules.js'
export { realSchedule, unrefSchedule } from './schedule.js'
export { Turns, turnDeadline, type WaitingLine } from './slices/turns.js'
export type { Schedule } from './schedule.js'
export { sharpConverter } from './pictures/converter.js'
export type { PictureConverter, SharpConverterOptions } from './pictures/converter.js'
export type { PictureOptions } from './pictures/pictures.js'
export type { PictureType } from './pictures/image-format.js'
export { sessionUser } from './sessions/directory.js'
export type { AuthOptions, AuthUser, Credentials } from './sessions/directory.js'
export type { Authorize, PermissionAction, PermissionTarget } from './permissions.js'
export {
  asLiveQuotas,
  liveQuotas,
  readWebQuotas,
  SERVER_QUOTAS,
  SESSION_QUOTAS,
} from './quotas/web-quotas.js'
export type { WebQuotaName, WebQuotas } from './quotas/web-quotas.js'
export { BatchedCounts } from './quotas/shared-counts.js'
export type { CountEntry, Defer, SharedCounts } from './quotas/shared-counts.js'
export { ReportedSessions } from './quotas/shared-sessions.js'
export type { SessionTotals, SharedSessions } from './quotas/shared-sessions.js'
