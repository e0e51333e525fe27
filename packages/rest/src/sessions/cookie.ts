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

/** A browser-session cookie (no Max-Age): the server decides when the session ends, by inactivity. */
export function sessionSetCookie(name: string, id: string, path: string): string {
  return `${name}=${id}; Path=${path}; HttpOnly; SameSite=Lax`
}

/** Removes the session cookie from the browser (after a logout). */
export function clearSessionCookie(name: string, path: string): string {
  return `${name}=; Path=${path}; Max-Age=0; HttpOnly; SameSite=Lax`
}
