/**
 * @module The target of an HTTP request line split into its path and query, without a URL object.
 * What is served is chosen by the target alone: a Host header never takes part. (It once did: the
 * node bridge parsed `http://${host}` + target, so `Host: x/rest/Doc(2)#` with a request for
 * `/anything` was answered with Doc 2.)
 */

export interface RequestTarget {
  /** Percent-encoded, as written; never empty. */
  readonly path: string
  /** Without its `?`; '' when there is none. */
  readonly query: string
}

// RFC 3986: `host [":" port]`, the host a registered name or a bracketed IP literal. `%` is left
// out of names: a Host is a name the server answers to, not text to decode.
const HOST = String.raw`(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=]*)(?::[0-9]*)?`
const HOST_ONLY = new RegExp(`^${HOST}$`)
// An absolute-form target may also carry the deprecated `userinfo@`.
const AUTHORITY = new RegExp(String.raw`^(?:[A-Za-z0-9\-._~!$&'()*+,;=:%]*@)?${HOST}$`)
const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//

const SLASH = 0x2f

/** Whether a Host header value is a host with an optional port (RFC 9112 §3.2 asks for a 400 otherwise). */
export function isHostHeader(value: string): boolean {
  return HOST_ONLY.test(value)
}

/**
 * Splits a request target: origin-form `/path?query`, absolute-form `http://host/path?query` (its
 * authority checked, then dropped) or anything else (`*`), kept whole as a path no resource has. A
 * fragment, which clients should not send, is dropped. Undefined for an absolute-form target whose
 * authority is not a host.
 */
export function splitTarget(target: string): RequestTarget | undefined {
  let from = 0
  let prefix = ''
  if (target.charCodeAt(0) !== SLASH) {
    const scheme = ABSOLUTE.exec(target)
    if (scheme !== null) {
      let end = scheme[0].length
      while (end < target.length && !'/?#'.includes(target[end]!)) end++
      if (!AUTHORITY.test(target.slice(scheme[0].length, end))) return undefined
      from = end
      // `http://h?x` has an empty path, which HTTP reads as `/`.
      if (target.charCodeAt(end) !== SLASH) prefix = '/'
    }
  }
  const hash = target.indexOf('#', from)
  const stop = hash < 0 ? target.length : hash
  const question = target.indexOf('?', from)
  if (question < 0 || question > stop) return { path: prefix + target.slice(from, stop), query: '' }
  return { path: prefix + target.slice(from, question), query: target.slice(question + 1, stop) }
}
