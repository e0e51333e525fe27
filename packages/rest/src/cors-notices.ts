/**
 * @module What CORS tells the developer where a browser hides it (cors.ts): a page whose origin
 * is refused gets replies it may not read (`Failed to fetch`, the server seeing only 200s), and a
 * page on another site than the server logs in but never sends its session cookie back (every
 * request after answers 401). Each is told once per origin through `CorsOptions.onNotice`, and the
 * second also in the 401 the page reads, as one more `__ERROR` entry naming the two hosts.
 */
import { datastoreError } from '@entistore/core'
import type { RestHeaders, RestReply } from './exchange.js'
import { errorList } from './errors/to-error-body.js'

/** Something about a page's requests the developer should hear, told once per origin. */
export type CorsNotice =
  /** A page on `origin` called the server and the option does not allow it. */
  | { readonly kind: 'refused'; readonly origin: string }
  /**
   * A page on `origin` was sent a cookie (a login) by the server at `host` (`Host`, with its
   * port), another site: the browser keeps the cookie from it, or keeps it for `host`'s pages.
   */
  | { readonly kind: 'cookie'; readonly origin: string; readonly host: string }

/** How many origins are told of, each kind counted apart: a public server's visitors stay a few lines. */
export const NOTICED_ORIGINS = 32

/** `notify`, called once per kind and origin, for the first `NOTICED_ORIGINS` origins of each kind. */
export function oncePerOrigin(notify: (notice: CorsNotice) => void): (notice: CorsNotice) => void {
  const told = { refused: new Set<string>(), cookie: new Set<string>() }
  return (notice) => {
    const seen = told[notice.kind]
    if (seen.has(notice.origin) || seen.size >= NOTICED_ORIGINS) return
    seen.add(notice.origin)
    // The developer's hook must not cost the page its reply.
    try {
      notify(notice)
    } catch {}
  }
}

/** `localhost` from `http://localhost:5173`, `[::1]` from `http://[::1]:3000`; `host:port` taken as well. */
export function hostOf(originOrHost: string): string {
  const host = originOrHost.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').toLowerCase()
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '')
}

/**
 * Whether a page on `origin` is the server's own page (`Host`: `127.0.0.1:8080`), or one the
 * browser says is (`Sec-Fetch-Site`, through a dev server's proxy): no CORS needed.
 */
export function sameOrigin(origin: string, headers: RestHeaders): boolean {
  if (header(headers, 'sec-fetch-site') === 'same-origin') return true
  const host = header(headers, 'host')
  return host !== undefined && origin.toLowerCase().endsWith(`//${host.toLowerCase()}`)
}

/**
 * Whether two hosts are surely two sites, whose cookies a browser keeps apart: two names of this
 * machine (`localhost`, `127.0.0.1`), two addresses, or two domains whose last two labels differ.
 * `a.example.co.uk` and `b.example.co.uk` count as one site, as browsers do; `a.co.uk` and `b.co.uk`
 * too, which browsers do not (the public suffix list tells them): no hint then, never a wrong one.
 */
export function otherSites(a: string, b: string): boolean {
  if (a === b) return false
  const site = (host: string) =>
    host.startsWith('[') || /^[\d.]+$/.test(host) || !host.includes('.')
      ? host
      : host.split('.').slice(-2).join('.')
  return site(a) !== site(b)
}

/** The first value of header `name` (lower case): CORS's headers are sent once. */
export function header(headers: RestHeaders, name: string): string | undefined {
  const v = headers[name]
  return Array.isArray(v) ? v[0] : v
}

/**
 * The server's `Host` when a page on `origin` calls it from another site, else undefined. The
 * browser says which in `Sec-Fetch-Site` (current browsers all send it), which a proxy between
 * them cannot blur: a page calling its dev server's proxy is `same-origin` whatever `Host` the
 * proxy names. Without it, the two hosts are compared.
 */
function otherSiteHost(headers: RestHeaders, origin: string): string | undefined {
  const host = header(headers, 'host')
  if (host === undefined) return undefined
  const site = header(headers, 'sec-fetch-site')
  if (site !== undefined) return site === 'cross-site' ? host : undefined
  return otherSites(hostOf(origin), hostOf(host)) ? host : undefined
}

/** The notice of a cookie `reply` sends to a page on `origin`, another site than the server's. */
export function cookieNotice(
  reply: RestReply,
  request: { readonly headers: RestHeaders },
  origin: string,
): CorsNotice | undefined {
  const cookie = reply.headers['set-cookie']
  // `SameSite=None` (sessionCookieSameSite) is the embedder's way to send it across sites.
  if (cookie === undefined || /samesite=none/i.test(String(cookie))) return undefined
  const host = otherSiteHost(request.headers, origin)
  return host === undefined ? undefined : { kind: 'cookie', origin, host }
}

/**
 * The 401 a page on another site than the server (`Host`) gets for a request without its
 * session cookie, with one more `__ERROR` entry saying why the cookie never comes, and where the
 * page should call the server instead. Any other reply as it is.
 */
export function withCookieHint(
  reply: RestReply,
  request: { readonly headers: RestHeaders },
  origin: string,
): RestReply {
  if (reply.status !== 401 || typeof reply.body !== 'string') return reply
  if (header(request.headers, 'cookie')?.includes('4DSID') === true) return reply
  const host = otherSiteHost(request.headers, origin)
  if (host === undefined) return reply
  const pageHost = hostOf(origin)
  let body: { __ERROR?: unknown } | null
  try {
    body = JSON.parse(reply.body) as { __ERROR?: unknown } | null
  } catch {
    return reply
  }
  const errors = body?.__ERROR
  if (!Array.isArray(errors)) return reply
  const hint = datastoreError('SessionCookieOtherSite', [
    hostOf(host),
    pageHost,
    serverAt(host, pageHost),
  ])
  const headers = { ...reply.headers }
  delete headers['content-length']
  return {
    ...reply,
    headers,
    body: JSON.stringify({ ...body, __ERROR: [...errors, ...errorList([hint])] }),
  }
}

/**
 * Where a page on `pageHost` finds the server at `host` on its own site: the same port on the
 * page's host when both are names of this machine (`localhost:8080` for `127.0.0.1:8080`),
 * else a host on the page's site, unnamed.
 */
export function serverAt(host: string, pageHost: string): string {
  const port = /:(\d+)$/.exec(host)?.[1]
  return LOOPBACK_HOSTS.has(hostOf(host)) && LOOPBACK_HOSTS.has(pageHost)
    ? `${pageHost}${port === undefined ? '' : `:${port}`}`
    : `a host of ${pageHost}'s site`
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * The same page on another name of this machine (`http://127.0.0.1:5173` for
 * `http://localhost:5173`) when `origin` is on one: the mix-up behind most refused origins.
 */
export function loopbackTwins(origin: string): string[] {
  const host = hostOf(origin)
  if (!LOOPBACK_HOSTS.has(host)) return []
  return [...LOOPBACK_HOSTS].filter((h) => h !== host).map((h) => origin.replace(host, h))
}
