/**
 * @module The plain request and reply that every transport maps onto. No web `Request`, no node
 * `IncomingMessage`: building those costs more than answering a read by key, so the core of the
 * REST interface (`RestCore.respond`) is a function from one plain value to another, and the fetch
 * handler and the node:http listener are thin mappings onto it. It answers synchronously, except a
 * call of an async class function, which it answers with a Promise of the reply: a transport writes
 * a reply at once, and a pending one when it settles (`isPending` tells them apart), so that reads
 * allocate no Promise and wait for no microtask.
 */

/** Request headers by lowercase name; node:http's `IncomingHttpHeaders` fits as is. */
export type RestHeaders = Readonly<Record<string, string | string[] | undefined>>

/** One request, as the transport read it. */
export interface RestRequest {
  /** The method, as on the request line (`GET`). */
  readonly method: string
  /**
   * The path of the request target as on the request line: still percent-encoded, without the
   * query, never taken from a Host header.
   */
  readonly path: string
  /** The query string as sent, without its `?`; '' when there is none. */
  readonly query: string
  /**
   * The headers the core may read: `cookie` (the `4DSID_<app>` session cookie) and, for a request
   * with a body, `content-type` (a write's body must be JSON: see body/read-json-body.ts). Both
   * transports pass every header they were sent.
   */
  readonly headers: RestHeaders
  /**
   * The body, read whole by the transport within `RestCore.bodyLimit(path)`; absent for methods that
   * take none (see `takesBody`).
   */
  readonly body?: Uint8Array | string | undefined
  /** The client's IP address when the transport knows it (node:http does): `lockInfo.IPAddr`. */
  readonly remoteAddress?: string | undefined
  /**
   * When the transport received the request, in epoch milliseconds (`Date.now()`): the time it
   * then waited for its turn is taken off its time budget (`queryBudgetMs`). Absent: the budget
   * starts when `respond` does.
   */
  readonly receivedAt?: number | undefined
  /**
   * Whether the client has gone away (its connection closed): a read whose work goes on in slices
   * asks it before each one, and stops when nobody will read its answer. Absent: never asked.
   */
  readonly closed?: (() => boolean) | undefined
}

/**
 * A reply body: a whole text or bytes; for a reply that may be big (an entity selection), a lazy
 * sequence of text chunks of about 64K characters that are rendered only as the transport asks for
 * them, so that a client that reads slowly makes the server hold one chunk, not the reply; null when
 * there is none (HEAD, 204).
 */
export type RestBody = string | Uint8Array | Iterable<string> | RestStream | null

/**
 * A body with no end of its own (server-sent events: `/rest/$changes`): its chunks as they come.
 * The transport writes each as it arrives, waits for the client to read before asking for the
 * next, and calls `close()` when the client goes away (or when it drops a client that stopped
 * reading), which frees what the stream holds.
 */
export interface RestStream extends AsyncIterable<string> {
  readonly stream: true
  close(): void
}

/** What a transport knows of a request it refuses: its headers, and its path once it has one. */
export interface RefusedRequest {
  readonly headers: RestRequest['headers']
  readonly path?: string
}

/** Whether `body` is a RestStream. */
export function isStream(body: unknown): body is RestStream {
  return typeof body === 'object' && body !== null && (body as Partial<RestStream>).stream === true
}

/** One reply. */
export interface RestReply {
  readonly status: number
  /** Lowercase names; `set-cookie` may hold several values. */
  readonly headers: Readonly<Record<string, string | string[]>>
  readonly body: RestBody
}

/** What a transport needs from the REST interface. */
export interface RestCore {
  /**
   * Answers one request. Never throws: every failure is an `__ERROR` reply. The reply is given
   * synchronously, except for a call of an async function (`POST /rest/$catalog/fn` and the like),
   * answered once the function settles: then it is a Promise of the reply (`isPending` says which),
   * that never rejects either, a failure being an `__ERROR` reply as on the synchronous path. A
   * transport awaits it only then, and writes the replies of one connection in request order.
   */
  respond(request: RestRequest): RestReply | Promise<RestReply>
  /**
   * The reply for a request the transport refused before `respond` could see it (a body past
   * `bodyLimit`, a malformed Host), with the status and `__ERROR` body of `error`. `request`, when
   * the transport has read its headers: what the reply may depend on (CORS answers its `Origin`;
   * HTTP rules match its `path`, when the transport could read one).
   */
  refuse(error: unknown, request?: RefusedRequest): RestReply
  /** The largest JSON request body, in bytes, a transport reads and hands to `respond`. */
  readonly maxBodyBytes: number
  /**
   * The largest body, in bytes, a transport reads for a POST to `path` (the request target's path,
   * percent-encoded, without its query): `maxBodyBytes` for JSON, the handler's `maxUploadBytes` for
   * a file sent as raw bytes (`$upload`, a picture POSTed to its attribute). A transport asks it
   * before reading the body, only for a request that has one; past it, 413 (9033 BodyTooLarge).
   * Optional, so that a core written before uploads still serves: without it, `maxBodyBytes`.
   */
  bodyLimit?(path: string): number
  /**
   * Whether an HTTP request handler takes `path` (outside the interface's `basePath`): the
   * transports read its body whatever the verb, and the framework adapters hand it over rather
   * than pass it on. Optional: without it, no handler.
   */
  handles?(path: string): boolean
}

/**
 * `core` answering through `respond` instead: what a wrapper in front of it changes (the cluster's
 * write gate, replies held until durable); its limits and refusals stay `core`'s.
 */
export function withRespond(core: RestCore, respond: RestCore['respond']): RestCore {
  return {
    get maxBodyBytes() {
      return core.maxBodyBytes
    },
    ...(core.bodyLimit ? { bodyLimit: (path: string) => core.bodyLimit!(path) } : {}),
    ...(core.handles ? { handles: (path: string) => core.handles!(path) } : {}),
    refuse: (error, request) => core.refuse(error, request),
    respond,
  }
}

/** The body limit of a POST to `path`: the core's `bodyLimit`, else its `maxBodyBytes`. */
export function bodyLimitOf(core: RestCore, path: string): number {
  return core.bodyLimit ? core.bodyLimit(path) : core.maxBodyBytes
}

/**
 * Whether `respond` answered later (a call of an async function): a then-able, to be awaited. A
 * property check, cheaper than `instanceof` and true of any then-able a wrapper may give. (The
 * handler asks it of its own replies too, before their headers.)
 */
export function isPending<T = RestReply>(reply: T | Promise<T>): reply is Promise<T> {
  return typeof (reply as Partial<Promise<T>>).then === 'function'
}

/**
 * Whether the transport reads the body of a request with this method. Only POST carries one in the
 * REST interface; the bodies of other methods are never read (they are answered 405 or ignored).
 */
export function takesBody(method: string): boolean {
  return method === 'POST'
}

/**
 * Whether the transport reads the body of a request to `path` with this method: a POST's, and any
 * request's an HTTP request handler takes (`RestCore.handles`: its function reads what it likes).
 */
export function readsBody(core: RestCore, method: string, path: string): boolean {
  return (
    takesBody(method) || (method !== 'GET' && method !== 'HEAD' && core.handles?.(path) === true)
  )
}
