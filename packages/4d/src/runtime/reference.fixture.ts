/**
 * @module A small reference of 4D's value rules, written from 4D's docs apart from the runtime, so
 * that property tests hold the two together (values.prop.test.ts). It shares no code with the
 * runtime: texts fold by Unicode's rule written out again, wildcards become regular expressions,
 * days are counted through JavaScript's UTC calendar, and the operator tables are data.
 */

// ---- Texts (docs/Concepts/dt_string.md "String comparisons") ----

/** A text as 4D compares it: case ignored, diacritics ignored ("n"="ñ", "A"="å"). */
export const refFold = (s: string): string =>
  s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().normalize('NFC')

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * `text = pattern`: `@` in the right operand matches any number of characters or none; two in a
 * row never match; a `@` in the left operand is a character.
 */
export function refTextEquals(text: string, pattern: string): boolean {
  if (pattern.includes('@@')) return false
  const source = pattern
    .split('@')
    .map((part) => escape(refFold(part)))
    .join('[\\s\\S]*')
  return new RegExp(`^${source}$`, 'u').test(refFold(text))
}

/** The sign of `a` against `b` for `<` and `>`: folded texts by code unit; one trailing `@` a prefix. */
export function refTextOrder(a: string, b: string): number {
  const fa = refFold(a)
  let fb = refFold(b)
  if (b.endsWith('@') && b.indexOf('@') === b.length - 1) {
    fb = refFold(b.slice(0, -1))
    if (fa.startsWith(fb)) return 0
  }
  return fa < fb ? -1 : fa > fb ? 1 : 0
}

// ---- Days (docs/Concepts/dt_date.md "Date operators") ----

export interface RefDate {
  readonly y: number
  readonly m: number
  readonly d: number
}

const DAY_MS = 86_400_000

function utc(date: RefDate): number {
  const t = new Date(0)
  t.setUTCFullYear(date.y, date.m - 1, date.d)
  return t.getTime()
}

/** `date + days`, through JavaScript's UTC calendar. */
export function refAddDays(date: RefDate, days: number): RefDate {
  const t = new Date(utc(date) + days * DAY_MS)
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() }
}

/** `a - b` in days. */
export const refDaysBetween = (a: RefDate, b: RefDate): number =>
  Math.round((utc(a) - utc(b)) / DAY_MS)

// ---- The operator tables (dt_number.md, dt_string.md, dt_date.md, dt_time.md, operators.md) ----

export type RefKind = 'number' | 'text' | 'boolean' | 'date' | 'time' | 'null' | 'undefined'

/**
 * The kind each operator gives for each pair of operand kinds; a pair that is not listed is an
 * error. Rows marked `chosen` are Entistore's where the docs are silent (a Number before a Time
 * takes its seconds); every other row is a line of 4D's tables.
 */
export const REF_TABLE: Readonly<Record<string, Readonly<Record<string, RefKind>>>> = {
  '+': {
    'number,number': 'number',
    'text,text': 'text',
    'date,number': 'date',
    'time,time': 'time',
    'time,number': 'number',
    'number,time': 'number', // chosen
  },
  '-': {
    'number,number': 'number',
    'date,date': 'number',
    'date,number': 'date',
    'time,time': 'time',
    'time,number': 'number',
    'number,time': 'number', // chosen
  },
  '*': {
    'number,number': 'number',
    'text,number': 'text',
    'time,number': 'number',
    'time,time': 'time', // operators.md "Time *= Time"
    'number,time': 'number', // chosen
  },
  '/': {
    'number,number': 'number',
    'time,number': 'number',
    'time,time': 'time', // operators.md "Time /= Time"
    'number,time': 'number', // chosen
  },
  '\\': { 'number,number': 'number', 'time,number': 'number' },
  '%': {
    'number,number': 'number',
    'time,time': 'time',
    'time,number': 'number',
    'text,text': 'boolean',
  },
  '^': { 'number,number': 'number' },
}

/** The falsy values (operators.md "Truthy and falsy"), by a description of the value. */
export function refTruthy(v: {
  kind: RefKind | 'collection' | 'object'
  empty?: boolean
  nullDate?: boolean
  value?: unknown
}): boolean {
  switch (v.kind) {
    case 'boolean':
      return v.value === true
    case 'null':
    case 'undefined':
      return false
    case 'text':
      return v.value !== ''
    case 'date':
      return !v.nullDate
    case 'collection':
    case 'object':
      return !v.empty
    default:
      return true // numbers, 0 included, and times
  }
}
