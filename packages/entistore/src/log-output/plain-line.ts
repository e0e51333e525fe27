/**
 * @module The request log's text line written straight from the ring's units into the output's
 * bytes, for the plain case: most requests have a URL of printable ASCII whose query (if any)
 * names no secret, a usual method, no user or a plain one. Such a line is the ring's units copied
 * as bytes and a few numbers written digit by digit: no entry object, no string decoded, masked
 * or encoded. It took the logging thread a quarter of `requestLogLine`'s time, whose CPU on two
 * cores comes out of the load generator's (issue 66).
 *
 * It writes exactly what `requestLogLine` writes (request-log.ts), and says when it cannot (-1):
 * a URL that masking could change (an `=` before its query, a query with a `%` or a word of
 * masked-target.ts's secrets), a character outside printable ASCII (escaping, UTF-8), a URL or
 * user long enough to be cut, a 400 (its json-server parameters), a number that would not be
 * written as digits. The caller then makes the line the usual way. A property test holds the two
 * to the same bytes.
 */
import { MAYBE_SECRET_WORDS } from '../serve/masked-target.js'
import type { EntryView } from './entry-ring.js'

/** The most bytes of a plain line after its prefix, its newline included: each part at its most. */
export const MAX_PLAIN_LINE =
  20 + // method
  500 + // URL
  100 + // user
  ' 65535 99999999999999 ms 281474976710655 B  (cut off)\n'.length

const MAX_METHOD = 20
const MAX_URL = 500
const MAX_USER = 100
const MAX_DIGITS_MS = 1e15

const SPACE = 0x20
const DASH = 0x2d
const DOT = 0x2e
const ZERO = 0x30
const NEWLINE = 0x0a
const QUESTION = 0x3f
const EQUALS = 0x3d
const TILDE = 0x7e
const PERCENT = 0x25

/**
 * Writes the text line of `view` (and its newline) into `out` at `offset`, which has room for
 * `prefix` and MAX_PLAIN_LINE bytes; answers the offset after it, or -1 when the line is not
 * plain (nothing useful written). `prefix`: the bytes of `[worker N] ` under `--workers`, else
 * empty.
 */
export function writePlainLine(
  view: EntryView,
  prefix: Uint8Array,
  out: Uint8Array,
  offset: number,
): number {
  const ms = view.ms
  if (view.status === 400 || !(ms >= 0 && ms < MAX_DIGITS_MS)) return -1
  const u = view.units
  let p = offset
  out.set(prefix, p)
  p += prefix.length
  p = copyPlain(u, view.methodFrom, view.methodTo, MAX_METHOD, out, p)
  if (p < 0) return -1
  out[p++] = SPACE
  p = copyUrl(u, view.methodTo, view.targetTo, out, p)
  if (p < 0) return -1
  out[p++] = SPACE
  if (view.status === 0) out[p++] = DASH
  else p = writeDigits(view.status, out, p)
  out[p++] = SPACE
  p = writeMilliseconds(ms, out, p)
  p = writeAscii(' ms ', out, p)
  p = writeDigits(view.bytes, out, p)
  p = writeAscii(' B ', out, p)
  if (view.userTo < 0) out[p++] = DASH
  else {
    p = copyPlain(u, view.targetTo, view.userTo, MAX_USER, out, p)
    if (p < 0) return -1
  }
  if (!view.complete) p = writeAscii(' (cut off)', out, p)
  out[p++] = NEWLINE
  return p
}

/** Copies units [from, to) as bytes when each is printable ASCII and at most `max`; else -1. */
function copyPlain(
  u: Uint16Array,
  from: number,
  to: number,
  max: number,
  out: Uint8Array,
  p: number,
): number {
  if (to - from > max) return -1
  for (let i = from; i < to; i++) {
    const c = u[i]!
    if (c < SPACE || c > TILDE) return -1
    out[p++] = c
  }
  return p
}

/**
 * Copies a URL's units as bytes when masking leaves it as it is (maskedTarget): printable ASCII,
 * no `=` before its query (a query written as a path segment), and a query, not empty, with no
 * `%` (which could spell a name) and none of the words that make masked-target.ts look closer;
 * -1 otherwise.
 */
function copyUrl(u: Uint16Array, from: number, to: number, out: Uint8Array, p: number): number {
  if (to - from > MAX_URL) return -1
  let query = -1
  for (let i = from; i < to; i++) {
    const c = u[i]!
    if (c < SPACE || c > TILDE) return -1
    if (query < 0) {
      if (c === QUESTION) query = i + 1
      else if (c === EQUALS) return -1
    } else if (c === PERCENT) return -1
    out[p++] = c
  }
  if (query < 0) return p
  // An empty query: the line drops its `?`.
  return query === to || namesSecret(u, query, to) ? -1 : p
}

/**
 * Whether units [from, to) hold one of MAYBE_SECRET_WORDS in any case, as masked-target.ts
 * finds them. A letter's code ORed with 0x20 is its lower case; no other printable
 * character becomes a letter that way.
 */
function namesSecret(u: Uint16Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const first = u[i]! | 0x20
    for (const word of MAYBE_SECRET_WORDS) {
      if (word.charCodeAt(0) !== first || i + word.length > to) continue
      let k = 1
      while (k < word.length && (u[i + k]! | 0x20) === word.charCodeAt(k)) k++
      if (k === word.length) return true
    }
  }
  return false
}

function writeAscii(text: string, out: Uint8Array, p: number): number {
  for (let i = 0; i < text.length; i++) out[p++] = text.charCodeAt(i)
  return p
}

/** A whole number from 0 to 2^53 in decimal digits. */
function writeDigits(n: number, out: Uint8Array, p: number): number {
  let digits = 1
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++
  const end = p + digits
  for (let at = end - 1, rest = n; at >= p; at--, rest = Math.floor(rest / 10))
    out[at] = ZERO + (rest % 10)
  return end
}

/** `milliseconds(ms)` of request-log.ts, for 0 ≤ ms < 1e15: the same rounding, as bytes. */
function writeMilliseconds(ms: number, out: Uint8Array, p: number): number {
  if (!(ms < 99.995)) return writeDigits(Math.round(ms), out, p)
  const hundredths = Math.round(ms * 100)
  const cents = hundredths % 100
  p = writeDigits((hundredths - cents) / 100, out, p)
  out[p++] = DOT
  if (cents < 10) out[p++] = ZERO
  return writeDigits(cents, out, p)
}
