/**
 * @module The session cookie, `4DSID_<appName>` as the real server names it. The cookie carries
 * only the session id; the session itself lives in the core's SessionStore.
 */

/** The cookie name for an application name, with characters a cookie name cannot hold replaced by `_`. */
export function sessionCookieName(appName: string): string {
  return `4DSID_${appName.replace(/[^A-Za-z0-9!#$%&'*+.^_`|~-]/g, '_')}`
}

/** The value of cookie `name` in a `Cookie` header, or undefined. */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined
  // Read in place (no split): the header is scanned on every request.
  for (let start = 0; start < header.length;) {
    let end = header.indexOf(';', start)
    if (end < 0) end = header.length
    const eq = header.indexOf('=', start)
    if (eq >= 0 && eq < end && header.slice(start, eq).trim() === name) {
      const value = header.slice(eq + 1, end).trim()
      return value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value
    }
    start = end + 1
  }
  return undefined
}

/** The flags of the session cookie (`createRestHandler`'s `sessionCookie…` options). */
export interface CookieFlags {
  /** @default 'Strict', 4D's documented default */
  readonly sameSite?: 'Strict' | 'Lax' | 'None'
  /** @default true: every 4D server's cookie has it (no page script reads the session id) */
  readonly httpOnly?: boolean
  /** Sent over HTTPS only; always with `sameSite: 'None'`, which browsers refuse without it. @default false */
  readonly secure?: boolean
}

/** The attributes after the value, `; HttpOnly; SameSite=Strict`, written once per handler. */
export function cookieAttributes(flags: CookieFlags = {}): string {
  const sameSite = flags.sameSite ?? 'Strict'
  if (!['Strict', 'Lax', 'None'].includes(sameSite))
    throw new TypeError(
      `sessionCookieSameSite must be Strict, Lax or None, not ${String(sameSite)}`,
    )
  return (
    (flags.httpOnly === false ? '' : '; HttpOnly') +
    (flags.secure === true || sameSite === 'None' ? '; Secure' : '') +
    `; SameSite=${sameSite}`
  )
}

const DEFAULT_ATTRIBUTES = cookieAttributes()

/** A browser-session cookie (no Max-Age): the server decides when the session ends, by inactivity. */
export function sessionSetCookie(
  name: string,
  id: string,
  path: string,
  attributes = DEFAULT_ATTRIBUTES,
): string {
  return `${name}=${id}; Path=${path}${attributes}`
}

/** Removes the session cookie from the browser (after a logout). */
export function clearSessionCookie(
  name: string,
  path: string,
  attributes = DEFAULT_ATTRIBUTES,
): string {
  return `${name}=; Path=${path}; Max-Age=0${attributes}`
}
