/**
 * @module `String(number; format)` (docs/commands/string.md, and the number formats of form
 * objects it refers to). The subset that runs:
 * - up to three sections, `positive;negative;zero` (`String(Num(1=1);"True;;False")` is "True");
 *   without a negative section a negative number gets a leading "-";
 * - placeholders `#` (a digit, or nothing), `0` (a digit, or 0), `^` (a digit, or a space), `*`
 *   (a digit, or `*`); `.` the decimal point (the decimals rounded half away from zero, as
 *   `Round`); `,` a thousands separator, written where a digit stands on its left; any other
 *   character is written as it is ("###,##0 Inhabitants");
 * - digits the placeholders cannot hold are written anyway, before the first placeholder (4D's
 *   forms show "<<<" instead; a text cannot be too narrow);
 * - `&x` and `&$` (the number as a 32-bit long in hexadecimal: `0x0080`, `$80`), `&xml` (the
 *   number with "." as it is), `&n` (scientific, n decimals: `1.235e+3`);
 * - a custom style (`|name`) is not known here: the number is written without a format.
 * `String(number; base)` writes the number in base 2 to 36 (21), 0 for the base 10.
 */
import { numberToText } from '../../convert/num-text.js'
import { toInteger } from '../../values/numbers.js'
import { invalid } from '../../arguments/arguments.js'
import { round } from '../math.js'

const PLACEHOLDERS = new Set(['#', '0', '^', '*'])
const PAD: Readonly<Record<string, string>> = { '#': '', '0': '0', '^': ' ', '*': '*' }

export function formatNumber(n: number, format: string): string {
  if (format.startsWith('&')) return special(n, format.slice(1))
  if (format.startsWith('|') || format === '') return numberToText(n)
  if (!Number.isFinite(n)) return numberToText(n)
  const sections = format.split(';')
  if (n === 0 && sections.length > 2) return section(0, sections[2]!)
  if (n < 0 && sections.length > 1 && sections[1] !== '') return section(-n, sections[1]!)
  const text = section(Math.abs(n), sections[0]!)
  return n < 0 && /[1-9]/.test(text) ? `-${text}` : text
}

/** `String(number; base)`. */
export function numberInBase(n: number, base: number): string {
  const b = base === 0 ? 10 : base
  if (b < 2 || b > 36) return invalid('String', 'base', 'a base goes from 2 to 36')
  return Number.isFinite(n) ? n.toString(b) : 'NaN'
}

function special(n: number, code: string): string {
  const lower = code.toLowerCase()
  if (lower === 'xml') return numberToText(n)
  if (lower === 'x' || code === '$') {
    const hex = (toInteger(n) >>> 0).toString(16).toUpperCase()
    if (code === '$') return `$${hex}`
    return `0x${hex.padStart(hex.length <= 4 ? 4 : 8, '0')}`
  }
  const digits = /^\d+$/.test(code) ? Number(code) : undefined
  if (digits !== undefined) return n.toExponential(Math.min(digits, 100))
  return numberToText(n)
}

/** One section applied to a number not negative. */
function section(x: number, pattern: string): string {
  const chars = [...pattern]
  const point = chars.findIndex(
    (c, i) =>
      c === '.' &&
      chars
        .slice(0, i)
        .concat(chars.slice(i + 1))
        .some((d) => PLACEHOLDERS.has(d)),
  )
  const intChars = point < 0 ? chars : chars.slice(0, point)
  const decChars = point < 0 ? [] : chars.slice(point + 1)
  const decimals = decChars.filter((c) => PLACEHOLDERS.has(c)).length
  const fixed = round(x, decimals).toFixed(decimals)
  const [intDigits, decDigits = ''] = fixed.split('.')
  const intText = fillInteger(intChars, intDigits === '0' ? '' : intDigits!)
  if (point < 0) return intText
  const decText = fillDecimals(decChars, decDigits)
  return /\d/.test(decText) ? `${intText}.${decText}` : intText + decText.replace(/^\./, '')
}

function fillInteger(chars: readonly string[], digits: string): string {
  const hasPlaceholder = chars.some((c) => PLACEHOLDERS.has(c))
  if (!hasPlaceholder) return chars.join('')
  const grouped = chars.includes(',')
  let remaining = digits
  const out: string[] = []
  let firstPlaceholder = -1
  for (let i = chars.length - 1; i >= 0; i--) {
    const c = chars[i]!
    if (PLACEHOLDERS.has(c)) {
      firstPlaceholder = i
      if (remaining.length > 0) {
        out.push(remaining[remaining.length - 1]!)
        remaining = remaining.slice(0, -1)
      } else out.push(PAD[c]!)
    } else if (c === ',') {
      const leftZero = chars.slice(0, i).some((d) => d === '0')
      if (remaining.length > 0 || leftZero) out.push(',')
    } else out.push(c)
  }
  let text = out.reverse().join('')
  if (remaining.length > 0) {
    const extra = grouped ? group(remaining, digits.length - remaining.length) : remaining
    const before = chars.slice(0, firstPlaceholder).join('')
    text = before + extra + text.slice(before.length)
  }
  return text
}

// The digits left over, with separators where the groups of three fall (`placed` already written).
function group(rest: string, placed: number): string {
  let out = ''
  for (let i = rest.length - 1, k = placed; i >= 0; i--, k++) {
    if (k > 0 && k % 3 === 0) out = `,${out}`
    out = rest[i] + out
  }
  return out
}

function fillDecimals(chars: readonly string[], digits: string): string {
  const out: string[] = []
  let k = 0
  const kept = digits.replace(/0+$/, '')
  for (const c of chars) {
    if (!PLACEHOLDERS.has(c)) {
      out.push(c)
      continue
    }
    const d = digits[k]
    // A `#` shows the decimals that are not trailing zeros.
    out.push(c === '#' && k >= kept.length ? '' : (d ?? PAD[c]!))
    k++
  }
  return out.join('')
}
