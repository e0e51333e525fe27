/**
 * @module Dates and times written through a pattern (`String(!2023-11-27!;"EEEE d MMMM y GGGG")`,
 * docs/Project/date-time-formats.md, ICU's date-time symbols), in English. The letters that run:
 * `G` (era: AD, Anno Domini), `y`/`u` (year; `yy` its two last digits), `M`/`L` (month: 1, 01,
 * Nov, November, N), `d`, `D` (day of the year), `E`/`e`/`c` (weekday: Mon, Monday, M), `a`
 * (AM/PM), `h`, `H`, `k`, `K` (hours 1-12, 0-23, 1-24, 0-11), `m`, `s`, `S` (fractions: zeros),
 * `z`/`O` (the host's offset: GMT+1; four letters GMT+01:00), `Z`/`x`/`X` (+0100, Z at GMT; a
 * time alone takes the offset of 2000-01-01);
 * text between single quotes is written as it is (`''` is a quote). Other letters are written as
 * they are.
 */
import { DateValue } from '../../values/date-value.js'
import { DAYS, MONTHS, localDate, offsetMinutes, pad } from './calendar-names.js'
import { weekday } from './date-time-format.js'

function zone(minutes: number, long: boolean, iso: boolean): string {
  const sign = minutes < 0 ? '-' : '+'
  const a = Math.abs(minutes)
  const h = Math.floor(a / 60)
  const m = a % 60
  if (iso) return minutes === 0 ? 'Z' : `${sign}${pad(h)}${pad(m)}`
  if (minutes === 0) return 'GMT'
  if (long) return `GMT${sign}${pad(h)}:${pad(m)}`
  return `GMT${sign}${h}${m === 0 ? '' : `:${pad(m)}`}`
}

/** `date` (or the null date for a time alone) at `seconds` after midnight, through `pattern`. */
export function formatPattern(date: DateValue, seconds: number, pattern: string): string {
  const y = date.isNull ? 0 : date.year
  const mo = date.isNull ? 0 : date.month
  const d = date.isNull ? 0 : date.day
  const h = Math.floor(seconds / 3600) % 24
  const mi = Math.floor(seconds / 60) % 60
  const s = seconds % 60
  const wd = date.isNull ? 0 : weekday(date)
  // A time alone takes the offset of a fixed day (no clock read for it).
  const offset = (): number =>
    offsetMinutes(date.isNull ? localDate(2000, 1, 1, seconds) : localDate(y, mo, d, seconds))
  const field = (letter: string, n: number): string => {
    switch (letter) {
      case 'G':
        return n === 5 ? 'A' : n === 4 ? 'Anno Domini' : 'AD'
      case 'y':
      case 'u':
      case 'Y':
        return n === 2 ? pad(y % 100) : pad(y, n)
      case 'M':
      case 'L':
        if (n >= 5) return MONTHS[mo - 1]?.[0] ?? ''
        if (n === 4) return MONTHS[mo - 1] ?? ''
        if (n === 3) return MONTHS[mo - 1]?.slice(0, 3) ?? ''
        return pad(mo, n)
      case 'd':
        return pad(d, n)
      case 'D': {
        const first = DateValue.of(y, 1, 1)
        return pad(date.isNull ? 0 : date.daysSince(first) + 1, n)
      }
      case 'E':
      case 'e':
      case 'c':
        if (letter !== 'E' && n <= 2) return String(wd + 1)
        if (n === 4) return DAYS[wd]!
        if (n === 5) return DAYS[wd]![0]!
        return DAYS[wd]!.slice(0, n === 6 ? 2 : 3)
      case 'a':
        return h < 12 ? 'AM' : 'PM'
      case 'h':
        return pad(h % 12 === 0 ? 12 : h % 12, n)
      case 'H':
        return pad(h, n)
      case 'k':
        return pad(h === 0 ? 24 : h, n)
      case 'K':
        return pad(h % 12, n)
      case 'm':
        return pad(mi, n)
      case 's':
        return pad(s, n)
      case 'S':
        return '0'.repeat(n)
      case 'z':
      case 'O':
      case 'v':
      case 'V':
        return zone(offset(), n >= 4, false)
      case 'Z':
      case 'x':
      case 'X':
        return zone(offset(), false, true)
      default:
        return letter.repeat(n)
    }
  }
  let out = ''
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i]!
    if (c === "'") {
      const end = pattern.indexOf("'", i + 1)
      if (end === i + 1) out += "'"
      else out += pattern.slice(i + 1, end < 0 ? pattern.length : end)
      i = end < 0 ? pattern.length : end + 1
      continue
    }
    if (!/[A-Za-z]/.test(c)) {
      out += c
      i++
      continue
    }
    let n = 1
    while (pattern[i + n] === c) n++
    out += field(c, n)
    i += n
  }
  return out
}
