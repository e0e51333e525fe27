/**
 * @module String comparison as 4D does it in queries: "neither case-sensitive nor diacritic".
 * `fold` maps a string to its comparison key: lowercase, diacritics removed (`Élodie` → `elodie`).
 * Equality, ranges, `begin`, wildcards, hash-index keys and sort order all go through it.
 */

// Combining marks left by NFD decomposition (é = e + U+0301).
const MARKS = /\p{M}/gu
// eslint-free fast check: any code unit outside ASCII.
const NON_ASCII = /[^\u0000-\u007f]/

/**
 * The comparison key of a string. ASCII text only needs lowercasing, the common case, kept fast;
 * text within Latin-1 (French, German, Spanish…) is folded a character at a time through a table
 * (about 10× faster than normalizing); anything else takes the general rule.
 */
export function fold(s: string): string {
  if (!NON_ASCII.test(s)) return s.toLowerCase()
  return NON_LATIN1.test(s) ? foldByRule(s) : foldLatin1(s)
}

/** Distinct texts a `foldCache` remembers: past it, the lookups cost more than they save. */
const FOLD_CACHE_MAX = 4096

/**
 * `fold` for one pass over many rows: columns repeat their values (cities, names, a company's name
 * read through each of its employees), and each distinct one is folded once while there are few.
 * A pass that folded every row made a new string a row, kept until the pass ended (an ordering in
 * slices: until the next full collection).
 */
export function foldCache(): (s: string) => string {
  let folded: Map<string, string> | undefined = new Map()
  return (s) => {
    if (folded === undefined) return fold(s)
    let f = folded.get(s)
    if (f === undefined) {
      f = fold(s)
      if (folded.size < FOLD_CACHE_MAX) folded.set(s, f)
      else folded = undefined
    }
    return f
  }
}

/**
 * `fold(s)` for a text the caller knows holds Latin-1 characters only (no code unit past U+00FF),
 * without the two searches `fold` makes to tell (a query's key scanned already, prepared-query.ts).
 */
export function foldLatin1(s: string): string {
  const table = latin1Table()
  if (!table) return foldByRule(s)
  if (s.length > LATIN1_MAX) return foldLongLatin1(s, table)
  const codes = new Array<number>(s.length)
  for (let i = 0; i < s.length; i++) codes[i] = table[s.charCodeAt(i)]!
  return String.fromCharCode.apply(null, codes)
}

// A long text's code units, read back as a string in one call: UTF-16 in the machine's order.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1
const utf16 = new TextDecoder('utf-16le', { ignoreBOM: true })

/**
 * `foldLatin1` past the arguments one call takes: the folded code units into an array, read back
 * at once. The rule took 4.6 s for 67 million characters with accents (the normalizations and the
 * removal of the marks), this 0.8 s, so that a long text compared in 4D code or a query holds the
 * thread a sixth as long.
 */
function foldLongLatin1(s: string, table: Uint16Array): string {
  if (!LITTLE_ENDIAN) return foldByRule(s)
  const codes = new Uint16Array(s.length)
  for (let i = 0; i < s.length; i++) codes[i] = table[s.charCodeAt(i)]!
  return utf16.decode(codes)
}

/** The general rule: decompose, drop the combining marks, lowercase, recompose. */
function foldByRule(s: string): string {
  return s.normalize('NFD').replace(MARKS, '').toLowerCase().normalize('NFC')
}

/**
 * The fold of each Latin-1 character as one code unit (table[c]), or null if the rule folds one
 * of them to more: a Latin-1 text's fold is then its characters' folds one for one, which lets a
 * reader compare stored Latin-1 bytes with a folded text without making either string.
 */
export const latin1Folds = (): Uint16Array | null => latin1Table()

const NON_LATIN1 = /[^\u0000-\u00ff]/
// Longer texts are made another way (one call takes at most this many character arguments).
const LATIN1_MAX = 8192
let latin1: Uint16Array | null | undefined

/**
 * Each Latin-1 character's fold by the general rule, as one code unit. A text of Latin-1
 * characters holds no combining mark (they start at U+0300), so it decomposes, loses its marks and
 * lowercases character by character, and recomposing changes nothing: folding it through this
 * table gives the rule's result (a property test holds the two together). Null if some character
 * folded to more than one unit, which no Unicode version has done: the rule is used then.
 */
function latin1Table(): Uint16Array | null {
  if (latin1 !== undefined) return latin1
  const table = new Uint16Array(256)
  for (let c = 0; c < 256; c++) {
    const f = foldByRule(String.fromCharCode(c))
    if (f.length !== 1) return (latin1 = null)
    table[c] = f.charCodeAt(0)
  }
  return (latin1 = table)
}

/**
 * Whether `fold(s) === folded`, without folding `s` in the common case: ASCII text compared code
 * unit by code unit, lowercased on the fly, stopping at the first difference (a scan compares
 * most rows unequal at their first letter). Folding keeps an ASCII prefix as its lowercase, so a
 * difference there is final; any non-ASCII code unit falls back to the full rule.
 */
export function equalsFolded(s: string, folded: string): boolean {
  const n = folded.length
  const m = s.length
  const common = m < n ? m : n
  for (let i = 0; i < common; i++) {
    let c = s.charCodeAt(i)
    if (c >= 128) return fold(s) === folded
    if (c >= 65 && c <= 90) c += 32
    if (c !== folded.charCodeAt(i)) return false
  }
  if (m === n) return true
  // A longer `s` can still fold to `folded` if what follows are combining marks (not ASCII).
  for (let i = common; i < m; i++) if (s.charCodeAt(i) >= 128) return fold(s) === folded
  return false
}

/** Code-unit order of two folded strings. */
export const compareFolded = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** True if `s` holds a wildcard character (`@`, or `*` as older 4D and Wakanda examples write it). */
export const hasWildcard = (s: string): boolean => s.includes('@') || s.includes('*')

/**
 * What a folded wildcard pattern asks, when it is one of the common forms: `a@` begins with `a`,
 * `@a` ends with it, `@a@` contains it, and a text without wildcards equals it. Anything else
 * (`a@b`, `@a@b@`) is `general`. A test of many patterns groups them by form (see predicate.ts).
 */
export type PatternShape =
  | { readonly kind: 'exact' | 'prefix' | 'suffix' | 'contains'; readonly text: string }
  | { readonly kind: 'general' }

/**
 * The wildcards of queries: `@`, and `*` as older 4D and Wakanda examples write it. The 4D
 * language's `=` knows `@` alone (`AT_ONLY`): there `*` is a character like any other.
 */
export const ANY_WILDCARD = /[@*]/
export const AT_ONLY = /@/

export function patternShape(foldedPattern: string, wildcard: RegExp = ANY_WILDCARD): PatternShape {
  const parts = foldedPattern.split(wildcard)
  if (parts.length === 1) return { kind: 'exact', text: foldedPattern }
  const inner = parts.slice(1, -1)
  const first = parts[0]!
  const last = parts[parts.length - 1]!
  // Consecutive wildcards (`a@@`) are one.
  if (inner.every((p) => p === '')) {
    if (last === '')
      return first === '' ? { kind: 'contains', text: '' } : { kind: 'prefix', text: first }
    if (first === '') return { kind: 'suffix', text: last }
  }
  const middle = inner.filter((p) => p !== '')
  if (middle.length === 1 && first === '' && last === '')
    return { kind: 'contains', text: middle[0]! }
  return { kind: 'general' }
}

/**
 * A matcher for a pattern with wildcards, applied to folded text: `a@` begins with, `@a` ends with,
 * `@a@` contains, `a@b@c` has those parts in that order. The pattern must already be folded;
 * `wildcard` says which characters are wildcards (the query's two, or the language's `@`).
 */
export function wildcardMatcher(
  foldedPattern: string,
  wildcard: RegExp = ANY_WILDCARD,
): (folded: string) => boolean {
  const shape = patternShape(foldedPattern, wildcard)
  switch (shape.kind) {
    case 'exact': {
      const text = shape.text
      return (s) => s === text
    }
    case 'prefix': {
      const text = shape.text
      return (s) => s.startsWith(text)
    }
    case 'suffix': {
      const text = shape.text
      return (s) => s.endsWith(text)
    }
    case 'contains': {
      const text = shape.text
      return (s) => s.includes(text)
    }
    case 'general':
  }
  const parts = foldedPattern.split(wildcard)
  const first = parts[0]!
  const last = parts[parts.length - 1]!
  const middle = parts.slice(1, -1).filter((p) => p !== '')
  const min = parts.reduce((n, p) => n + p.length, 0)
  return (s) => {
    if (s.length < min || !s.startsWith(first) || !s.endsWith(last)) return false
    let at = first.length
    const end = s.length - last.length
    for (const part of middle) {
      const found = s.indexOf(part, at)
      if (found < 0 || found + part.length > end) return false
      at = found + part.length
    }
    return true
  }
}

/** The literal prefix of a wildcard pattern (`ab@c` → `ab`): what an index can seek on. */
export function wildcardPrefix(foldedPattern: string): string {
  const i = foldedPattern.search(/[@*]/)
  return i < 0 ? foldedPattern : foldedPattern.slice(0, i)
}

const WORD = /[\p{L}\p{N}_]+/gu

/** The folded words of a text, for the `%` (contains keyword) comparator. */
export function keywords(text: string): string[] {
  return foldedKeywords(fold(text))
}

/** The words of a text already folded. */
export function foldedKeywords(folded: string): string[] {
  return folded.match(WORD) ?? []
}
