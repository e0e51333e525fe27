/**
 * @module Entistore as MSW request handlers (issue 81): a fake 4D backend with no server at all.
 * The same handlers answer a page's `fetch` through `setupWorker` (a service worker), and a test's
 * through `setupServer` in Node (Vitest, Jest, Playwright's Node side): each request is handed to
 * the REST handler as a web `Request` (`createRestHandler(ds).fetch`), its reply handed back.
 * Nothing here imports a Node module: the file bundles for a page with core and rest.
 *
 * **Sessions.** A 4D client sends back the `4DSID_` cookie its first reply set. Neither side of MSW
 * does that for a mocked reply: in Node, MSW manages no cookie (3.0); in a page, a reply made by
 * the worker's client code sets no cookie the browser keeps (the session cookie is HttpOnly). So
 * the handlers keep it, as one browser would: the session cookie a reply sets is sent with the
 * next requests that carry none of their own, until a reply clears it. One set of handlers is
 * one client: a login is that client's, its entity sets and locks too. `reset()` between tests
 * puts the data back and forgets every session, as the fixture's reset does.
 */
import type { DataSnapshot, Datastore } from '@entistore/core'
import {
  createRestHandler,
  isPending,
  isUnder,
  readCookie,
  serves,
  sessionCookieName,
  toFetchHandler,
  withRespond,
  type RestHandler,
  type RestHandlerOptions,
  type RestReply,
} from '@entistore/rest'
import { http, type HttpHandler } from 'msw'
import { resetDatastore, type ResetOptions } from '../reset.js'
import {
  isBundledProject,
  openProject,
  type BundledProject,
  type OpenProjectOptions,
} from './project-in-page.js'

/** The REST handler's options (auth, limits, `basePath`…) and where the mocked server is. */
export interface RestHandlersOptions extends RestHandlerOptions {
  /**
   * Where the mocked server is: an origin (`https://api.example.com`), with a path before the
   * REST interface's if it has one. Empty: any origin, the page's own in a browser.
   * @default ''
   */
  readonly baseUrl?: string
}

/** The handlers, spread into `setupServer(...)` or `setupWorker(...)`, and what they answer with. */
export type RestHandlers = HttpHandler[] & {
  readonly ds: Datastore
  /** The REST handler behind them (`createRestHandler(ds, options)`). */
  readonly rest: RestHandler
  /** The data as the handlers found it, which `reset` restores. */
  readonly initial: DataSnapshot
  /**
   * Puts the initial data back (entities, keys, stamps, sequences, the global stamp), drops entity
   * sets and locks, and forgets the sessions, the one the handlers send included, unless
   * `keepSessions`. Synchronous; call it before each test.
   */
  reset(options?: ResetOptions): void
}

/**
 * MSW handlers for every route of the REST interface of `ds` (`/rest/…` under `baseUrl`, and the
 * paths of the HTTP request handlers among `options.handlers`); any other request falls through
 * to the next handler, or to the network.
 *
 * @example
 * const handlers = restHandlers(ds) // a datastore made with @entistore/core
 * const server = setupServer(...handlers) // msw/node; in a page: setupWorker(...handlers).start()
 * beforeEach(() => handlers.reset())
 */
export function restHandlers(ds: Datastore, options: RestHandlersOptions = {}): RestHandlers {
  if (isBundledProject(ds))
    throw new TypeError(
      'restHandlers: a bundled project is opened by projectHandlers(project), which compiles its code first (it answers a promise)',
    )
  const rest = createRestHandler(ds, options)
  const base = new URL(options.baseUrl || 'http://any.invalid')
  const anyOrigin = !options.baseUrl
  const prefix = base.pathname.replace(/\/+$/, '')
  const cookieName = options.sessionCookieName ?? sessionCookieName(ds.name)
  // The session cookie as the last reply set it (`name=value`), sent with the next requests.
  let held: string | undefined

  /** Whether `url` is the mocked server's and a path the REST handler answers. */
  const ours = (url: URL): boolean =>
    (anyOrigin || url.origin === base.origin) &&
    isUnder(url.pathname, prefix) &&
    serves(rest, url.pathname.slice(prefix.length) || '/')

  // The cookie and the mocked server's prefix are handled on the plain request and reply, between
  // the fetch adapter and the handler: a page's Request and Response drop a Cookie or Set-Cookie
  // header set by script (forbidden header names), so neither can carry them here.
  const core = withRespond(rest, (request) => {
    const headers = { ...request.headers }
    const sent = Array.isArray(headers.cookie) ? headers.cookie.join('; ') : headers.cookie
    // A request that sends a session of its own is that session's: its reply's cookie too.
    const own = readCookie(sent, cookieName) !== undefined
    if (held !== undefined && !own) headers.cookie = sent ? `${sent}; ${held}` : held
    const reply = rest.respond({
      ...request,
      path: request.path.slice(prefix.length) || '/',
      headers,
    })
    if (own) return reply
    return isPending(reply) ? reply.then(kept) : kept(reply)
  })
  const answer = toFetchHandler(core)

  /** Keeps the session cookie `reply` sets, or forgets it when the reply clears it. */
  const kept = (reply: RestReply): RestReply => {
    const set = reply.headers['set-cookie']
    for (const line of set === undefined ? [] : typeof set === 'string' ? [set] : set) {
      const [pair = ''] = line.split(';', 1)
      const eq = pair.indexOf('=')
      if (eq < 0 || pair.slice(0, eq).trim() !== cookieName) continue
      const cleared = /;\s*max-age=0\b/i.test(line) || pair.slice(eq + 1).trim() === ''
      held = cleared ? undefined : pair.trim()
    }
    return reply
  }

  const handler = http.all('*', ({ request }) =>
    ours(new URL(request.url)) ? answer(request) : undefined,
  )
  const initial = ds.snapshot()
  return Object.assign([handler], {
    ds,
    rest,
    initial,
    reset(resetOptions: ResetOptions = {}) {
      resetDatastore(ds, initial, resetOptions)
      if (!resetOptions.keepSessions) held = undefined
    },
  })
}

/** `restHandlers`' options, and how the project's code runs (`openProject`'s). */
export interface ProjectHandlersOptions extends RestHandlersOptions, OpenProjectOptions {}

/**
 * MSW handlers for a 4D project bundled by `entistore bundle --project` (the default export of
 * the module it writes): its model, data and roles served, its class functions run, its HTTP
 * request handlers and rules applied (`options`' own `handlers` and `rules` win), as `entistore
 * serve --project` serves the folder. The 4D language is loaded and the code compiled
 * first: await it before `setupWorker(...handlers).start()` or `setupServer(...handlers)`.
 *
 * @example
 * import project from './project.js' // entistore bundle --project ./MyApp --out project.js
 * const handlers = await projectHandlers(project)
 * await setupWorker(...handlers).start()
 */
export async function projectHandlers(
  project: BundledProject,
  options: ProjectHandlersOptions = {},
): Promise<RestHandlers> {
  return restHandlers(await openProject(project, options), {
    ...(project.handlers === undefined ? {} : { handlers: project.handlers }),
    ...(project.rules === undefined ? {} : { rules: project.rules }),
    ...options,
  })
}
