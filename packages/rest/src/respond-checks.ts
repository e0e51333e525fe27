/**
 * @module What the handler's `respond` asks of a request and of an error: whether an HTTP
 * request handler takes it or it may keep an entity set, whose turn a read in slices waits for,
 * whether an error means `wait and run again` (an index being built, a read going on in
 * slices), and the id the quick lane's cookie names; the shape of a request answered.
 */
import { DatastoreError, randomId, type Datastore, type Session } from '@entistore/core'
import type { RestRequest, RestStream } from './exchange.js'
import type { RestParams } from './url/params.js'
import type { Parsed } from './parse-request.js'
import type { Reply } from './reply.js'

/** A request answered, before its headers: the status, the rendered body, and for bytes their type. */
export interface Answered {
  readonly status: number
  readonly body: string | Uint8Array | Iterable<string> | RestStream
  readonly file?: Reply['file']
  /**
   * Headers an error asks for (`allow` when not the interface's own methods, `retry-after`), or a
   * JSON reply (`$asArray`'s `x-total-count`…).
   */
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** The answer of a reply: its status, its body as rendered, and its file or its extra headers. */
export const answered = (
  reply: Reply,
  out: string | Uint8Array | Iterable<string> | RestStream,
): Answered =>
  reply.file
    ? { status: reply.status, body: out, file: reply.file }
    : { status: reply.status, body: out, headers: reply.headers }

/** The index a read waits for, when `error` is IndexBuilding (9143) from `ds.withoutIndexBuilds`. */
export const indexBuilding = (
  error: unknown,
): { dataClass: string; attribute: string } | undefined => {
  if (!DatastoreError.is(error) || error.name !== 'IndexBuilding') return undefined
  const { dataClass, attribute } = error.details ?? {}
  return typeof dataClass === 'string' && typeof attribute === 'string'
    ? { dataClass, attribute }
    : undefined
}

/**
 * Whose turn a read in slices waits for: its session's when the client came back with one, else
 * its address's (a session made for this request is the request's own).
 */
export const clientOf = (session: Session, created: boolean, request: RestRequest): string =>
  created ? (request.remoteAddress ?? '') : session.id

/** Whether `error` is QuerySuspended (9144): the read's work goes on in slices. */
export const suspended = (error: unknown): boolean =>
  DatastoreError.is(error) && error.name === 'QuerySuspended'

// Whether an HTTP request handler takes the request.
export const handledBy = (parsed: Parsed): boolean =>
  'target' in parsed && parsed.target.kind === 'httpHandler'

// Whether a request may keep an entity set: `$method=entityset` (or a relation's subentityset),
// or a gone set remade from its saved filter or order.
export const keepsSet = (params: RestParams): boolean =>
  params.method === 'entityset' ||
  params.method === 'subentityset' ||
  params.savedFilter !== undefined ||
  params.savedOrderBy !== undefined

// The id a read by key's cookie names for a client without one: a new id, nothing kept for it
// (the quick lane in `respond`); where the store keeps every guest, a guest of its own.
export const quickSessionId = (ds: Datastore): string =>
  ds.sessions.keepsEveryGuest === true
    ? ds.sessions.resume(undefined).session.id
    : (ds.sessions.newId?.() ?? randomId())
