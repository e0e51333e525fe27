/**
 * @module `$directory`: logging a user in and out of a REST session, as the real server's
 * `/rest/$directory/login` does. Who may log in is the embedder's to say, through a synchronous
 * `authenticate` hook given to `createRestHandler`; the session records the user it returned.
 * With `forceLogin`, a session without a user may only describe the datastore (`$catalog…`) and
 * use `$directory` (`guard`).
 */
import { fail, sessionUser, type AuthUser, type Datastore, type Session } from '@entistore/core'
import type { RestHeaders } from '../exchange.js'
import type { Answer } from '../reply.js'
import type { Authorize } from '../permissions.js'
import type { DirectoryAction, RestTarget } from '../url/parse-rest-url.js'
import type { LoginThrottle, LoginThrottleOptions } from './login-throttle.js'

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
  /**
   * The longest `session-4D-length` a login may ask, in minutes (at least 60, the shortest the
   * header gives): a longer one is refused with 400 (1806), so that no session (and none of its
   * locks) is made practically permanent. @default 1440 (a day)
   */
  readonly maxSessionLength?: number
  /**
   * Failed logins (`$directory/login`, and calls of the `authentify` datastore function that do not
   * log in) counted per user name and per client address: past `freeAttempts`, each failure makes
   * both wait `baseDelayMs`, doubling up to `maxDelayMs`, and a login asked meanwhile is refused
   * unchecked with 429 (9081) and `Retry-After`. A successful login forgets its user name's
   * failures. `false`: no throttle.
   * @default { freeAttempts: 5, baseDelayMs: 1000, maxDelayMs: 300_000, forgetAfterMs: 3_600_000, maxEntries: 10_000 }
   */
  readonly loginThrottle?: LoginThrottleOptions | false
}

const MINUTE = 60_000
/** The default of `maxSessionLength`, in minutes: a day. */
export const MAX_SESSION_LENGTH = 1440

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
  /** The client's address, for the login throttle. */
  readonly remoteAddress?: string | undefined
  /** The handler's count of failed logins; undefined: none. */
  readonly logins?: LoginThrottle | undefined
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
      const given = credentials(ctx)
      const timeout = given.timeout
      const authenticate = ctx.auth.authenticate
      // Every login renews the session's id (session fixation: an id planted before the login is
      // dead after it) and establishes it; refused with 402, before any change, when no session
      // can be established.
      if (!authenticate) {
        // No way to check anyone: a session without a user, as the real server opens one.
        ctx.ds.sessions.renew(session.id, timeout === undefined ? {} : { timeout })
        return { status: 200, body: '{"result":true}' }
      }
      const name = given.user
      ctx.logins?.check(name, ctx.remoteAddress)
      const user = authenticate({ user: name, password: given.password, headers: ctx.headers })
      if (!user) {
        ctx.logins?.failed(name, ctx.remoteAddress)
        // A failed login logs the session's previous user out: it is no one now.
        if (sessionUser(session)) ctx.ds.sessions.renew(session.id, { user: null })
        return { status: 401, body: '{"result":false}' }
      }
      ctx.logins?.succeeded(name)
      ctx.ds.sessions.renew(session.id, timeout === undefined ? { user } : { user, timeout })
      return { status: 200, body: '{"result":true}' }
    }
    case 'currentUser': {
      only('GET')
      // A session given privileges without a user name (setPrivileges) has no user to show.
      const user = sessionUser(session)
      return {
        status: 200,
        body: JSON.stringify({
          result: user?.name
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

/** Who a login names, with what password, and the inactivity timeout it asks (ms). */
interface LoginRequest {
  readonly user: string
  readonly password: string
  readonly timeout: number | undefined
}

/**
 * A login's credentials: 4D's headers (`username-4D`, `password-4D`, `session-4D-length` in
 * minutes), or, when the request has no `username-4D`, Wakanda's body: a JSON array
 * `["user", "password", timeout]`, its timeout in seconds and optional (null or absent).
 */
function credentials(ctx: DirectoryContext): LoginRequest {
  const name = header(ctx.headers, 'username-4d')
  if (name !== undefined || !Array.isArray(ctx.body()))
    return {
      user: name ?? '',
      password: header(ctx.headers, 'password-4d') ?? '',
      timeout: sessionLength(ctx, header(ctx.headers, 'session-4d-length'), 'session-4D-length'),
    }
  const body = ctx.body() as unknown[]
  const [user, password, seconds] = body
  if (
    body.length > 3 ||
    typeof user !== 'string' ||
    typeof password !== 'string' ||
    !(seconds === undefined || seconds === null || typeof seconds === 'number')
  )
    fail('InvalidParameter', [
      '$directory/login',
      JSON.stringify(body).slice(0, 80),
      'headers username-4D and password-4D, or a body ["user", "password", timeout in seconds]',
    ])
  const timeout =
    typeof seconds === 'number'
      ? sessionLength(ctx, String(seconds), 'the login timeout', 'seconds')
      : undefined
  return { user, password, timeout }
}

/**
 * The inactivity timeout a login asks, in ms, from `text`, a number of minutes
 * (`session-4D-length`), or of seconds when `unit` says so (Wakanda's login): at least 60 minutes
 * (less is raised, as the real server says), at most `maxSessionLength`; 400 past it or for what
 * is not a positive number.
 */
function sessionLength(
  ctx: DirectoryContext,
  text: string | undefined,
  name: string,
  unit: 'minutes' | 'seconds' = 'minutes',
): number | undefined {
  if (text === undefined) return undefined
  const perMinute = unit === 'minutes' ? 1 : 60
  const minutes = Number(text) / perMinute
  const max = ctx.auth.maxSessionLength ?? MAX_SESSION_LENGTH
  if (text.trim() === '' || !Number.isFinite(minutes) || minutes <= 0 || minutes > max)
    fail('InvalidParameter', [name, text, `a number of ${unit}, at most ${max * perMinute}`])
  return Math.max(60, minutes) * MINUTE
}

/**
 * The reply of a call of the login function `authentify` (4D's force login mode), counted by the
 * login throttle: refused unchecked while the address must wait, a failure when it ends without
 * logging the session in (it returned, or threw, without `logIn`). Its user name is not known
 * before it logs in: only the address is counted, and a success forgets the failures of the user
 * it logged in.
 */
export function throttledLogin(
  ctx: { readonly session: Session; readonly remoteAddress?: string | undefined },
  logins: LoginThrottle | undefined,
  call: () => Answer,
): Answer {
  if (!logins) return call()
  logins.check(undefined, ctx.remoteAddress)
  const session = ctx.session
  const before = session.id
  // A login renews the id: a new id with a user on it is a login made by this call.
  const settle = (): void => {
    const user = session.id !== before ? sessionUser(session) : undefined
    if (user) logins.succeeded(user.name)
    else logins.failed(undefined, ctx.remoteAddress)
  }
  let answer: Answer
  try {
    answer = call()
  } catch (error) {
    settle()
    throw error
  }
  if (!(answer instanceof Promise)) {
    settle()
    return answer
  }
  return answer.then(
    (reply) => (settle(), reply),
    (error: unknown) => {
      settle()
      throw error
    },
  )
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
    case 'openapi':
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
    case 'releaseSets':
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
