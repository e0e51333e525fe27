/**
 * @module Numbers to text and text to numbers, as 4D's `String` and `Num` do without a format:
 * - `String(number)`: 13 significant digits, trailing zeros dropped (`String(1/3)` is
 *   "0.3333333333333", `String(Arctan(1)*4)` "3.14159265359"), "INF" and "-INF" for the infinite
 *   ones, "" for not a number (docs/commands/string.md), "." as the decimal separator.
 * - `Num(text)` (docs/commands/num.md): the digits of the text, letters ignored (`"A1B2C3"` is 123);
 *   the decimal separator marks the decimals; a hyphen before the digits makes the number negative
 *   and one after them ends it (`"123-456"` is 123); `e` or `E` after digits starts an exponent,
 *   which a hyphen makes negative (`"123e-2"` is 1.23).
 */
import { BLOCK, spend, UNCOUNTED, type Passes } from '../values/passes.js'
import { finish, type Work } from '../values/work.js'

/** The significant digits of a real written as text (SET REAL COMPARISON LEVEL's note). */
export const SIGNIFICANT_DIGITS = 13

/** `String(number)` without a format. */
export function numberToText(n: number): string {
  // An int32 has at most 10 digits: JavaScript's text is 4D's (toPrecision costs ~80% of a loop
  // building a text of String($i)); -0 is "0" either way.
  if ((n | 0) === n) return String(n)
  if (Number.isNaN(n)) return ''
  if (n === Infinity) return 'INF'
  if (n === -Infinity) return '-INF'
  const rounded = Number(n.toPrecision(SIGNIFICANT_DIGITS))
  return String(rounded === 0 ? 0 : rounded)
}

// A hyphen as 4D's docs print it: the ASCII one, or the dashes typesetting puts in its place.
const HYPHENS = new Set(['-', '\u2013', '\u2212'])

/** What `Num` has read of a text so far. */
interface Reading {
  mantissa: string
  exponent: string
  negative: boolean
  negativeExponent: boolean
  state: 'integer' | 'decimals' | 'exponent'
  digits: boolean
}

const reading = (): Reading => ({
  mantissa: '',
  exponent: '',
  negative: false,
  negativeExponent: false,
  state: 'integer',
  digits: false,
})

/**
 * `Num(text {; separator})`, each character read a pass of `rt`'s budget (context/budget.ts),
 * counted a block at a time. A text of a block at most is read at once; a longer one goes through
 * `numberSteps`.
 */
export function textToNumber(text: string, separator = '.', rt: Passes = UNCOUNTED): number {
  if (text.length > BLOCK) return finish(numberSteps(text, separator, rt))
  spend(rt, text.length)
  const r = reading()
  read(r, text, separator, 0, text.length)
  return valueOf(r)
}

/** `textToNumber` as steps (values/work.ts): a block of characters between two stops. */
export function* numberSteps(text: string, separator = '.', rt: Passes = UNCOUNTED): Work<number> {
  const r = reading()
  for (let at = 0; at < text.length;) {
    const to = Math.min(at + BLOCK, text.length)
    if ((rt.ticks -= to - at) < 0) {
      rt.tick()
      yield
    }
    at = read(r, text, separator, at, to)
  }
  return valueOf(r)
}

/**
 * Reads the characters of `text` from `from` to `to` into `r`: where the reading goes on (past
 * `to` when a separator lies across it), or the text's length when the number has ended.
 */
function read(r: Reading, text: string, separator: string, from: number, to: number): number {
  let { mantissa, exponent, negative, negativeExponent, state, digits } = r
  let i = from
  for (; i < to; i++) {
    const c = text[i]!
    if (c >= '0' && c <= '9') {
      if (state === 'exponent') exponent += c
      else {
        mantissa += c
        digits = true
      }
    } else if (state === 'integer' && separator !== '' && text.startsWith(separator, i)) {
      state = 'decimals'
      mantissa += '.'
      i += separator.length - 1
    } else if (HYPHENS.has(c)) {
      if (state === 'exponent' && exponent === '' && !negativeExponent) negativeExponent = true
      else if (!digits && !negative) negative = true
      else {
        i = text.length
        break
      }
    } else if ((c === 'e' || c === 'E') && digits && state !== 'exponent') {
      state = 'exponent'
    }
    // Any other character (a letter, a space, a thousands separator) is skipped.
  }
  r.mantissa = mantissa
  r.exponent = exponent
  r.negative = negative
  r.negativeExponent = negativeExponent
  r.state = state
  r.digits = digits
  return i
}

/** The number read. */
function valueOf(r: Reading): number {
  if (!r.digits) return 0
  const value = Number(`${r.mantissa}e${r.negativeExponent ? '-' : ''}${r.exponent || '0'}`)
  return r.negative ? -value : value
}
