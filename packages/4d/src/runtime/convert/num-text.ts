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
import { UNCOUNTED, type Passes } from '../values/passes.js'

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

/** `Num(text {; separator})`; each character read a pass of `rt`'s budget (context/budget.ts). */
export function textToNumber(text: string, separator = '.', rt: Passes = UNCOUNTED): number {
  let mantissa = ''
  let exponent = ''
  let negative = false
  let negativeExponent = false
  let state: 'integer' | 'decimals' | 'exponent' = 'integer'
  let digits = false
  for (let i = 0; i < text.length; i++) {
    if (--rt.ticks < 0) rt.tick()
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
      else break
    } else if ((c === 'e' || c === 'E') && digits && state !== 'exponent') {
      state = 'exponent'
    }
    // Any other character (a letter, a space, a thousands separator) is skipped.
  }
  if (!digits) return 0
  const value = Number(`${mantissa}e${negativeExponent ? '-' : ''}${exponent || '0'}`)
  return negative ? -value : value
}
