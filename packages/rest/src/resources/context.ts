/** How a live feed over REST (`/rest/$changes`) is paced: the handler's `changes` option. */
export interface ChangesStreamOptions {
  /** A heartbeat event after this many milliseconds with nothing sent. @default 15_000 */
  readonly heartbeatMs?: number
  /** Events a client may fall behind by before it is dropped (and reconnects). @default 1000 */
  readonly bufferLimit?: number
  /** The `retry:` a browser waits before it reconnects, in milliseconds. @default 3000 */
  readonly retryMs?: number
}

/**
 * @module What every resource receives (`RouteContext`: the datastore, the session, the parsed
 * target and parameters, the body on demand, the permissions), and the small checks several
 * resources share: the exposed dataclass, the visible attribute, the session as a lock owner,
 * `$format` and the one list of attributes. Imports no resource and not the router.
 */
import {
  dataClassNames,
  fail,
  isPublic,
  sessionLockOwner,
  type AttributeDef,
  type DataClass,
  type DataClassDef,
  type Datastore,
  type Actor,
  type LockOwner,
  type Session,
  type SliceScope,
} from '@entistore/core'
import { isShown, shownNames, type EntityWriter } from '../serialize/entity.js'
import type { EntityTexts } from '../serialize/entity-texts.js'
import type { Uris } from '../serialize/uris.js'
import type { RestHeaders } from '../exchange.js'
import type { RestParams } from '../url/params.js'
import type { RestTarget } from '../url/parse-rest-url.js'
import type { AuthOptions } from '../sessions/directory.js'
import type { Permissions } from '../permissions.js'
import type { UploadStore } from '../uploads/upload-store.js'
import type { Pictures } from '../pictures/pictures.js'
import type { CallLimits } from '../call/call-limits.js'
import type { LoginThrottle } from '../sessions/login-throttle.js'

export interface RouteContext {
  readonly ds: Datastore
  readonly uris: Uris
  /** The session cookie's name (`4DSID_<app>`), for the description of `$openapi`. */
  readonly cookieName?: string
  readonly writer: EntityWriter
  /** The bytes kept of entities as reads by key send them (`entityCacheBytes`); undefined: none. */
  readonly texts?: EntityTexts | undefined
  readonly session: Session
  readonly method: string
  readonly target: RestTarget
  readonly params: RestParams
  /** The request's headers (`host` and `user-agent` describe a lock's holder). */
  readonly headers: RestHeaders
  /** The client's IP address, when the transport gives it (`lockInfo.IPAddr`). */
  readonly remoteAddress?: string | undefined
  /** The request body as JSON (read on first call; undefined when empty). Throws 400/415. */
  readonly body: () => unknown
  /**
   * The request body as the bytes sent, for a file (`$upload`, a raw write to a picture): never read
   * as JSON. Empty when there is none. Throws 413 past `maxUploadBytes`.
   */
  readonly bytes: () => Uint8Array
  /** The files uploaded to this handler (`POST /rest/$upload`), kept for writes that name them. */
  readonly uploads: UploadStore
  /** Login: the embedder's `authenticate` and `forceLogin`, and its `authorize`. */
  readonly auth?: AuthOptions
  /** The handler's pictures: their tags and conversions (`$imageformat`). */
  readonly pictures: Pictures
  /** What a call of a class function may pass and how long it may take. */
  readonly calls: CallLimits
  /** The live feed's pacing (`/rest/$changes`): the handler's `changes` option. */
  readonly changes?: ChangesStreamOptions
  /**
   * Who the request acts as (core's Actor: the session, its privileges and what decides for it),
   * when anything is checked or restricted: a roles file, an `authorize` hook, a `restrict` event.
   * The handler runs the request, its reply and the code it calls as it.
   */
  readonly actor?: Actor | undefined
  /** This request's permissions: its actor, when a rule applies (set by `withPermissions`). */
  readonly perms?: Permissions | undefined
  /** The handler's count of failed logins (`loginThrottle`); undefined: none. */
  readonly logins?: LoginThrottle | undefined
  /**
   * Where a read runs when its heavy work may go on in slices (core's `SliceScope`): GET and HEAD
   * requests have one; the handler drives it and runs the read again.
   */
  readonly slices?: SliceScope | undefined
  /**
   * Hands the client another session, whose cookie the reply sets: a function's code restored it
   * with a one-time passcode (`currentCall().restore(token)`).
   */
  readonly restoreSession?: ((session: Session) => void) | undefined
}

/** The dataclass if it exists and is exposed; 1800 otherwise (a hidden dataclass does not exist for REST). */
export function exposedDataClass(ds: Datastore, name: string): DataClass {
  const dc = ds.findDataClass(name)
  if (!dc || !isPublic(dc.def))
    return fail('DataClassNotFound', [name, dataClassNames(ds.schema, true)])
  return dc
}

/**
 * The attribute if the client may see it; 1500 otherwise (a hidden attribute does not exist for
 * REST, nor does a relation to a hidden dataclass).
 */
export function visibleAttribute(dc: DataClass, name: string): AttributeDef {
  const attr = dc.def.attributesByName.get(name)
  if (!attr || !isShown(dc.datastore.schema, attr))
    return fail('AttributeNotFound', [name, dc.name, shownNames(dc)])
  return attr
}

/**
 * The session of a request as the owner of its locks and writes, with its client for `lockInfo`.
 * Its id is read from the session each time: a function that logs in (the session renewed under a
 * new id) and then writes or locks does so as the session it is now.
 */
export function sessionOwner(ctx: RouteContext): LockOwner {
  return ctx.actor?.owner ?? requestOwner(ctx.session, ctx.headers, ctx.remoteAddress)
}

/** The owner of a request's locks and writes: its session (id read at each use) and its client. */
export function requestOwner(
  session: Session,
  headers: RestHeaders,
  remoteAddress: string | undefined,
): LockOwner {
  return sessionLockOwner(session, lockOwnerOf(session.id, headers, remoteAddress).info)
}

/**
 * The owner of the locks of session `sessionId` for a request with these headers, from this
 * address: its `info` is what a refused lock's `lockInfo` shows. Also what a process shares with
 * the others for a lock taken through it (entistore's Redis participant).
 */
export function lockOwnerOf(
  sessionId: string,
  headers: RestHeaders,
  remoteAddress: string | undefined,
): LockOwner {
  const header = (name: string): string | undefined => {
    const v = headers[name]
    return Array.isArray(v) ? v[0] : v
  }
  const host = header('host')
  const userAgent = header('user-agent')
  return {
    id: sessionId,
    kind: 'session',
    info: {
      ...(host !== undefined ? { host } : {}),
      ...(remoteAddress !== undefined ? { IPAddr: remoteAddress } : {}),
      ...(userAgent !== undefined ? { userAgent } : {}),
    },
  }
}

/** The check `parseProjection` makes of each attribute `$attributes` or `$expand` names. */
export function check(
  ctx: RouteContext,
): ((dc: DataClassDef, attr: AttributeDef) => void) | undefined {
  const perms = ctx.perms
  return perms && ((dc, attr) => perms.needRead(dc, attr))
}

/** Attributes are named in the path or in `$attributes`, not both (which would win is a guess). */
export function oneAttributeList(paths: readonly string[] | undefined, params: RestParams): void {
  if (!paths || !params.attributes) return
  fail('InvalidParameter', [
    '$attributes',
    params.attributes.join(','),
    'one list of attributes: in the path or in $attributes, not both',
  ])
}

/** The `$format` values: `json` (the default), and `looker` with its other name `dashboard`. */
const FORMATS = new Set(['json', 'looker', 'dashboard'])

/** `$format`, checked: true for the Looker form. Only a selection has one. */
export function lookerFormat(params: RestParams, selection: boolean): boolean {
  const format = params.format
  if (format === undefined || format === 'json') return false
  if (!FORMATS.has(format)) fail('UnsupportedFormat', [format, 'json, looker, dashboard'])
  if (!selection) fail('UnsupportedFormat', [format, 'one entity is written as json only'])
  return true
}

/** `{ [key]: value }`, or `{}` when the value is undefined (an option left out, not set to undefined). */
export const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }

/**
 * The context with the permissions of `actor` (the request's, or a promoted one while a function
 * runs) and a writer that leaves out what it may not read; unchanged when nothing is checked.
 */
export function withPermissions(ctx: RouteContext, actor = ctx.actor): RouteContext {
  if (!actor?.checks) return actor === ctx.actor ? ctx : { ...ctx, actor }
  const writer = ctx.writer.restricted((dc, attr) => actor.mayRead(dc, attr))
  return { ...ctx, actor, perms: actor, writer }
}
