/**
 * @module The settings of one REST handler, read once from its options with their defaults and
 * checked (a bad limit throws at creation, not at the first request): limits, the session cookie,
 * access, the caches and stores every request shares.
 */
import { accessRule, type Datastore } from '@entistore/core'
import { callLimits } from './call/call-limits.js'
import { Pictures } from './pictures/pictures.js'
import { LOOP_TURNS, SLICE_MS } from './slices/turns.js'
import { EntityWriter } from './serialize/entity.js'
import { EntityTexts } from './serialize/entity-texts.js'
import type { ReplyLimits } from './serialize/reply-parts.js'
import { Uris } from './serialize/uris.js'
import { cookieAttributes, sessionCookieName } from './sessions/cookie.js'
import { MAX_SESSION_LENGTH, type AuthOptions } from './sessions/directory.js'
import { LoginThrottle } from './sessions/login-throttle.js'
import { readParams } from './url/params.js'
import { DEFAULT_QUERY_LIMITS, type QueryLimits } from './url/query-limits.js'
import { UploadStore } from './uploads/upload-store.js'
import { checkHttpHandlers, HttpHandlers } from './web-server/http-handlers.js'
import type { RestHandlerOptions } from './handler-options.js'

/** What handlerSettings makes: read by the handler and by parseRequest. */
export type HandlerSettings = ReturnType<typeof handlerSettings>

/** The options read and defaulted, and the objects made from them that every request shares. */
export function handlerSettings(ds: Datastore, options: RestHandlerOptions) {
  const basePath = (options.basePath ?? '/rest').replace(/\/+$/, '')
  const cookieName = options.sessionCookieName ?? sessionCookieName(ds.name)
  const cookieFlags = cookieAttributes({
    sameSite: options.sessionCookieSameSite,
    httpOnly: options.sessionCookieHttpOnly,
    secure: options.sessionCookieSecure,
  })
  const maxTop = options.maxTop ?? Infinity
  const queryLimits: QueryLimits = {
    maxFilterLength: options.maxFilterLength ?? DEFAULT_QUERY_LIMITS.maxFilterLength,
    // The engine's own bound is the most: deeper would not be answered anyway.
    maxFilterDepth: Math.min(
      options.maxFilterDepth ?? DEFAULT_QUERY_LIMITS.maxFilterDepth,
      DEFAULT_QUERY_LIMITS.maxFilterDepth,
    ),
    maxInTerms: options.maxInTerms ?? DEFAULT_QUERY_LIMITS.maxInTerms,
  }
  const maxBodyBytes = options.maxBodyBytes ?? 2_000_000
  const uploads = new UploadStore(ds.clock, { maxBytes: options.maxUploadStoreBytes })
  // One upload alone may fill the store, never more: a larger one could not be kept.
  const maxUploadBytes = Math.min(options.maxUploadBytes ?? 16_777_216, uploads.maxBytes)
  const maxBodyDepth = options.maxBodyDepth ?? 64
  const queryBudgetMs = options.queryBudgetMs ?? 2000
  const maxReplyBytes = options.maxReplyBytes ?? 268_435_456
  const replyLimits: ReplyLimits = {
    bytes: maxReplyBytes,
    repeatedBytes: options.maxRepeatedBytes ?? 16_777_216,
  }
  const loopTurns = options.turns ?? LOOP_TURNS
  const replyClock = loopTurns.clock(SLICE_MS)
  const calls = callLimits(options)
  const changesOptions = options.changes ?? {}
  // The one decision of every access: the roles file (the datastore's) and the embedder's hook,
  // both of which must allow. Each request acts as its session under it (its Actor), and so does
  // the code it runs.
  const roles = ds.roles
  const rule = accessRule(roles, options.authorize)
  const auth: AuthOptions = {
    authenticate: options.authenticate,
    forceLogin: options.forceLogin ?? roles?.forceLogin,
    authorize: options.authorize,
    maxSessionLength: options.maxSessionLength ?? MAX_SESSION_LENGTH,
  }
  if (!(auth.maxSessionLength! >= 60))
    throw new RangeError('createRestHandler: maxSessionLength must be at least 60 minutes')
  const logins =
    options.loginThrottle === false ? undefined : new LoginThrottle(ds.clock, options.loginThrottle)
  // A login needs a way in: `$directory/login` with `authenticate`, or 4D's datastore function
  // `authentify` (called with `POST /rest/$catalog/authentify`). The embedder who asks for
  // forceLogin without one is told; a roles file's forceLogin without one is served as 4D serves
  // it: guests describe the datastore and nothing more (the project's loader notes it).
  if (
    options.forceLogin === true &&
    !auth.authenticate &&
    !ds.functions.find('dataStore', '', 'authentify')?.exposed
  )
    throw new TypeError(
      'createRestHandler: forceLogin needs an authenticate function or an exposed authentify datastore function',
    )
  const uris = new Uris(basePath)
  const writer = new EntityWriter(uris)
  const entityCacheBytes = options.entityCacheBytes ?? 33_554_432
  if (!(entityCacheBytes >= 0))
    throw new RangeError('createRestHandler: entityCacheBytes must be 0 or more')
  const texts = entityCacheBytes > 0 ? new EntityTexts(ds, entityCacheBytes) : undefined
  const pictures = new Pictures(options.pictures)
  // Most reads have no query string: their parameters are the same every time.
  const paramLimits = { maxTop, maxDepth: maxBodyDepth }
  const noParams = readParams([], paramLimits)
  const handlers = new HttpHandlers(checkHttpHandlers(options.handlers ?? [], 'handlers'), basePath)
  return {
    basePath,
    cookieName,
    cookieFlags,
    queryLimits,
    maxBodyBytes,
    uploads,
    maxUploadBytes,
    maxBodyDepth,
    queryBudgetMs,
    maxReplyBytes,
    replyLimits,
    loopTurns,
    replyClock,
    calls,
    changesOptions,
    rule,
    auth,
    logins,
    uris,
    writer,
    texts,
    pictures,
    paramLimits,
    noParams,
    handlers,
  }
}
