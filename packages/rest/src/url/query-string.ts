/**
 * @module Reading a REST query string the way 4D clients write it.
 *
 * Clients mix two encodings in one URL: `$filter` and `$orderby` go raw, wrapped in double quotes,
 * with only `&` and `=` percent-encoded and a `"` inside written `\u0022`; other parameters are
 * form-encoded (`%24top=10`, `+` for a space). So every name and value is form-decoded (`+` is a
 * space, `%XX` a byte of UTF-8), and `\u0022`-style escapes are left for the filter grammar.
 */
import { datastoreError } from '@entistore/core'

export interface RawParam {
  /** The name as written, decoded (`$filter`). */
  readonly name: string
  readonly value: string
}

/** Decodes one form-encoded component. Malformed `%` sequences throw UrlMalformed (1806). */
export function formDecode(text: string, whole: string): string {
  const plus = text.includes('+') ? text.replace(/\+/g, ' ') : text
  if (!plus.includes('%')) return plus
  try {
    return decodeURIComponent(plus)
  } catch {
    // A stray `%` that does not start an escape (`$filter="pct>5%"`) is taken literally, as a
    // lenient server does; only a broken UTF-8 sequence is an error.
    const fixed = plus.replace(/%(?![0-9A-Fa-f]{2})/g, '%25')
    try {
      return decodeURIComponent(fixed)
    } catch {
      throw datastoreError('UrlMalformed', [whole, `"${text}" is not valid percent-encoded UTF-8`])
    }
  }
}

/** The parameters of a raw query string (without the leading `?`), in order. */
export function parseQueryString(search: string): RawParam[] {
  const out: RawParam[] = []
  if (search === '') return out
  for (const piece of search.split('&')) {
    if (piece === '') continue
    const eq = piece.indexOf('=')
    const name = formDecode(eq < 0 ? piece : piece.slice(0, eq), search)
    const value = eq < 0 ? '' : formDecode(piece.slice(eq + 1), search)
    out.push({ name, value })
  }
  return out
}

/**
 * A parameter value without the quotes clients put around it: `"lastName='A@'"` → `lastName='A@'`,
 * `'["john",20000]'` → `["john",20000]`. Only a matching pair at both ends is removed.
 */
export function unquote(value: string): string {
  const v = value.trim()
  if (v.length >= 2) {
    const first = v[0]
    if ((first === '"' || first === "'") && v[v.length - 1] === first) return v.slice(1, -1)
  }
  return v
}
