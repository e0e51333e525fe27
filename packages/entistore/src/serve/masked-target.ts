/**
 * @module What the server's logs may say of a request: its target with every secret masked, on one
 * line. Used by the line of a 5xx on stderr (error-log.ts) and by the request log (request-log.ts).
 *
 * Never a header (so never a cookie or an Authorization) and never a body (a login's password
 * travels in its headers or body): only the path and query. In them, the value of `$4DSID` (a
 * session id is a login), of `$params` (a function's arguments may be a password) and of any
 * parameter whose name says it holds a secret (`password`, `token`, `secret`, `key`, `auth`…) is
 * replaced with `…`, in the query and in the query 4D lets a client write as a path segment
 * (`/rest/$catalog/$4DSID=…`). Control characters are escaped: a request cannot add lines of its
 * own to a log.
 */

/** Parameters whose values are never written: a session id, a function's arguments. */
const HIDDEN = new Set(['$4dsid', '$params'])
/** Words that say a parameter holds a secret, in its name in any case. */
const SECRET_WORDS = [
  'pass',
  'pwd',
  'secret',
  'token',
  'auth',
  'key',
  'session',
  'sid',
  'cookie',
  'credential',
]
const SECRET = new RegExp(SECRET_WORDS.join('|'), 'i')
/**
 * The words (in any case) that make a query looked at closer: those of a secret's name and of a
 * HIDDEN one. A query holding none, and no `%` that could spell one, is written as it is
 * (plain-line.ts writes such URLs without this module). Tested over the whole query (values
 * too): a match only means a closer look.
 */
export const MAYBE_SECRET_WORDS: readonly string[] = [...SECRET_WORDS, 'params']
const MAYBE_SECRET = new RegExp(`${MAYBE_SECRET_WORDS.join('|')}|%`, 'i')
/** Where a query written as a path segment starts: `/$name=` (or its `%24` form). */
const PATH_QUERY = /\/(?:\$|%24)[^/=]*=/i

/** `path?query` with the values of secret parameters replaced with `…`, cut to `max` characters. */
export function maskedTarget(path: string, query: string, max: number): string {
  // A query in the path needs an `=`: most paths have none, found without the regex.
  const at = path.includes('=') ? path.search(PATH_QUERY) : -1
  const shown = at < 0 ? path : `${path.slice(0, at + 1)}${maskQuery(path.slice(at + 1))}`
  return oneLine(query === '' ? shown : `${shown}?${maskQuery(query)}`, max)
}

/**
 * The query string with the values of secret parameters replaced with `…`. The query itself when
 * none is (most requests): a line a request is written, and copies of every query were most of
 * what its line cost.
 */
function maskQuery(query: string): string {
  // Most queries name no secret: one test instead of splitting each into its pairs.
  if (!MAYBE_SECRET.test(query)) return query
  const pairs = query.split('&')
  let masked = false
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i]!
    const eq = pair.indexOf('=')
    if (eq < 0) continue
    const name = decoded(pair.slice(0, eq)).toLowerCase()
    if (!HIDDEN.has(name) && !SECRET.test(name)) continue
    pairs[i] = `${pair.slice(0, eq)}=…`
    masked = true
  }
  return masked ? pairs.join('&') : query
}

function decoded(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g
const CONTROL_TEST = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

/** `text` cut to `max` characters, its control characters escaped (`\n` → `\x0a`). */
export function oneLine(text: string, max: number): string {
  const clipped = text.length > max ? `${text.slice(0, max - 1)}…` : text
  // A request's line reads a method, a target and a user: control characters are rare, and a
  // test finds there is none without the replacement's machinery.
  if (!CONTROL_TEST.test(clipped)) return clipped
  return clipped.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0)
    return code > 0xff ? `\\u${code.toString(16)}` : `\\x${code.toString(16).padStart(2, '0')}`
  })
}
