/**
 * @module `$directory`: logging a user in and out of a REST session, as the real server's
 * `/rest/$directory/login` does. Who may log in is the embedder's to say, through a synchronous
 * `authenticate` hook given to `createRestHandler`; the session records the user it returned.
 * With `forceLogin`, a session without a user may only describe the datastore (`$catalog…`) and
 * use `$directory` (`guard`).
 */
import {
  fail,
  sessionUser,
  setSessionUser,
  type AuthUser,
  type Datastore,
  type Session,
} from '@entistore/core'
import type { RestHeaders } from '../exchange.js'
import type { Authorize } from '../permissions.js'
import type { DirectoryAction, RestTarget } from '../url/parse-rest-url.js'

/** What `authenticate` receives: the `username-4D` and `password-4D` headers, and all headers. */
export interface Credentials {
  readonly user: string
  readonly password: string
  readonly headers: RestHeaders
}

export interface AuthOptions {
  /**
   * Checks a login (`POST /rest/$directory/login`). Returns the user, or null to refuse (401,
   * `{"result": false}`). Synchronous, like the whole handler: compare hashes with
   * `crypto.scryptSync` and `crypto.timingSafeEqual`, not a network call. Without it a login opens
   * a session without a user, as the real server does without `On REST Authentication`.
   */
  readonly authenticate?: (credentials: Credentials) => AuthUser | null | undefined
  /**
   * Only logged-in sessions may read or write data: until then, only `$catalog…` and `$directory`
   * are answered; anything else is 401 (1557 for a read, 1558 for a write). Needs `authenticate`.
   * @default false
   */
  readonly forceLogin?: boolean
  /**
   * Permissions (permissions.ts): whether the session may `read`, `create`, `update`, `delete`,
   * `execute` or `describe` a dataclass or one of its attributes. Refusals are 403 with 4D's codes
   * (1557–1561, 1607–1609); an attribute the session may not read is left out of replies.
   * @default everything allowed
   */
  readonly authorize?: Authorize
}

const MINUTE = 60_000

export { sessionUser, type AuthUser }

function header(headers: RestHeaders, name: string): string | undefined {
  const v = headers[name]
  return Array.isArray(v) ? v[0] : v
}

export interface DirectoryContext {
  readonly ds: Datastore
  readonly session: Session
  readonly method: string
  readonly headers: RestHeaders
  readonly body: () => unknown
  readonly auth: AuthOptions
}

/** A `$directory` request's status and JSON body. */
export function directory(
  ctx: DirectoryContext,
  action: DirectoryAction,
): { status: number; body: string } {
  const { session, method } = ctx
  const only = (...methods: string[]): void => {
    if (!methods.includes(method))
      fail('MethodNotAllowed', [method, `$directory/${action} answers ${methods.join(', ')}`])
  }
  switch (action) {
    case 'login': {
      only('POST')
      const lengthText = header(ctx.headers, 'session-4d-length')
      let timeout: number | undefined
      if (lengthText !== undefined) {
        const minutes = Number(lengthText)
        if (lengthText.trim() === '' || !Number.isFinite(minutes) || minutes <= 0)
          fail('InvalidParameter', ['session-4D-length', lengthText, 'a number of minutes'])
        // "Cannot be less than 60", as the real server says.
        timeout = Math.max(60, minutes) * MINUTE
      }
      const user = ctx.auth.authenticate
        ? ctx.auth.authenticate({
            user: header(ctx.headers, 'username-4d') ?? '',
            password: header(ctx.headers, 'password-4d') ?? '',
            headers: ctx.headers,
          })
        : undefined
      if (ctx.auth.authenticate && !user) {
        // A failed login logs the session's previous user out: it is no one now.
        setSessionUser(session, undefined)
        return { status: 401, body: '{"result":false}' }
      }
      // Refused with 402 here when no session can be established.
      ctx.ds.sessions.establish(session.id)
      if (user) setSessionUser(session, user)
      if (timeout !== undefined) session.timeout = timeout
      return { status: 200, body: '{"result":true}' }
    }
    case 'currentUser': {
      only('GET')
      const user = sessionUser(session)
      return {
        status: 200,
        body: JSON.stringify({
          result: user
            ? {
                userName: user.name,
                fullName: user.fullName ?? user.name,
                ID: user.id ?? user.name,
              }
            : null,
        }),
      }
    }
    case 'currentUserBelongsTo': {
      only('POST')
      const body = ctx.body()
      if (!Array.isArray(body) || body.length !== 1 || typeof body[0] !== 'string')
        fail('InvalidParameter', [
          '$directory/currentUserBelongsTo',
          JSON.stringify(body) ?? '',
          'a group name or ID in an array: ["Sales"]',
        ])
      const user = sessionUser(session)
      const belongs = user?.groups?.includes(body[0] as string) ?? false
      return { status: 200, body: `{"result":${belongs}}` }
    }
    case 'logout': {
      only('GET', 'POST')
      const hadUser = sessionUser(session) !== undefined
      // Its locks are released; the handler sees the session gone and clears the cookie.
      ctx.ds.sessions.close(session.id)
      return { status: 200, body: `{"result":${hadUser}}` }
    }
  }
}

/**
 * With `forceLogin`, refuses a request of a session without a user unless it only describes the
 * datastore (`$catalog…`), calls the login function `$catalog/authentify` (4D's force login mode),
 * or uses `$directory`: 401 with 1557 for a read, 1558 for a write. Any other function call,
 * datastore functions included, waits for the login.
 */
export function guard(
  auth: AuthOptions,
  session: Session,
  method: string,
  target: RestTarget,
  ds: Datastore,
): void {
  if (!auth.forceLogin || sessionUser(session)) return
  switch (target.kind) {
    case 'catalog':
    case 'directory':
      return
    case 'catalogDataClass':
      // A GET of a name that is not a function describes (or answers 1800 for) a dataclass.
      if (
        target.name === 'authentify' ||
        (method !== 'POST' && !ds.functions.find('dataStore', '', target.name))
      )
        return
      break
    case 'info':
    case 'singleton':
    case 'upload':
    case 'dataClass':
      break
  }
  const what =
    target.kind === 'dataClass'
      ? method === 'POST'
        ? `dataClass ${target.dataClass}`
        : `the ${target.dataClass} dataclass`
      : target.kind === 'catalogDataClass'
        ? `$catalog/${target.name}`
        : `$${target.kind}`
  if (method === 'POST') fail('NoPermissionToUpdate', [what])
  fail('NoPermissionToRead', [what])
}
