/**
 * @module 4D's comparison of texts (docs/Concepts/dt_string.md "String comparisons"): case and
 * diacritics ignored (`"a"="A"`, `"n"="ñ"`), as the query engine compares them: both go through the
 * core's `fold`. `=` and `#` take `@` in the right operand as "any number of characters or none",
 * two wildcards in a row never match (`"abcdefghij"="abc@@fg"` is False); a `@` in the left operand
 * is a character. `<`, `>`, `<=`, `>=` take one trailing `@` (`"abcd"<="abc@"`): every text that
 * begins with its prefix is then equal to the pattern. `%` finds a keyword among a text's words.
 */
import {
  AT_ONLY,
  compareFolded,
  fold,
  foldedKeywords,
  keywords,
  wildcardMatcher,
} from '@entistore/core'
import { running } from './running.js'
import { spend, type Passes } from './passes.js'
import { PIECE_LENGTH } from './text-pieces.js'

// Patterns are mostly literals of the code, met again at each call: their matchers are kept,
// up to a bound past which the cache starts again.
const MATCHERS_MAX = 1024
const matchers = new Map<string, (folded: string) => boolean>()

/** The test of `=` for `pattern` holding a `@`, on a folded text. */
export function matcherOf(pattern: string): (folded: string) => boolean {
  let match = matchers.get(pattern)
  if (match === undefined) {
    match = pattern.includes('@@') ? () => false : wildcardMatcher(fold(pattern), AT_ONLY)
    if (matchers.size >= MATCHERS_MAX) matchers.clear()
    matchers.set(pattern, match)
  }
  return match
}

/**
 * The length of two texts, counted as passes of the running code's budget (passes.ts) when one of
 * them is longer than a piece: a builtin that compares elements (`.indexOf()`, `Find in array`,
 * `.distinct()`) counts one pass an element, and an element of millions of characters folds for
 * a second. So such a comparison reads the clock, and past the budget ends with 9410. (The
 * operators in a call in slices fold a long text a piece at a time: text-compare-steps.ts.)
 */
export function countTexts(a: string, b: string): void {
  const n = a.length + b.length
  if (n <= 2 * PIECE_LENGTH) return
  const rt = running() as Passes | undefined
  if (rt !== undefined) spend(rt, n)
}

/** 4D's `text = pattern`: folded equality, `@` in `pattern` a wildcard. */
export function textEquals(text: string, pattern: string): boolean {
  if (text !== pattern) countTexts(text, pattern)
  if (pattern.includes('@')) return matcherOf(pattern)(fold(text))
  return text === pattern || foldedEqual(text, pattern)
}

const NON_ASCII = /[^\u0000-\u007f]/

/**
 * `fold(a) === fold(b)` without making either string in the common case: ASCII texts compared
 * code unit by code unit, capitals lowered on the fly (the fold of ASCII text is its lowercase);
 * any other character takes the full rule. `=` on texts is the comparison 4D code makes most.
 */
function foldedEqual(a: string, b: string): boolean {
  const n = a.length
  if (n !== b.length) return (NON_ASCII.test(a) || NON_ASCII.test(b)) && fold(a) === fold(b)
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i)
    let y = b.charCodeAt(i)
    if (x === y) continue
    if (x >= 128 || y >= 128) return fold(a) === fold(b)
    if (x >= 65 && x <= 90) x += 32
    if (y >= 65 && y <= 90) y += 32
    if (x !== y) return NON_ASCII.test(a) || NON_ASCII.test(b) ? fold(a) === fold(b) : false
  }
  return true
}

/**
 * The order of `a` and `b` for `<`, `>`, `<=`, `>=`: folded, by code unit. A `b` ending with its
 * only `@` stands for the texts that begin with the rest: `a` is equal to it if it begins so, and
 * before or after all of them otherwise. Any other `@` is a character (dt_string.md: such a
 * comparison "is not valid").
 */
export function compareTexts(a: string, b: string): number {
  countTexts(a, b)
  const prefixed = endsWithItsAt(b)
  return orderOfFolded(fold(a), fold(prefixed ? b.slice(0, -1) : b), prefixed)
}

/** Whether `b`, the right operand of an ordering, ends with its only `@` (a prefix then). */
export function endsWithItsAt(b: string): boolean {
  const at = b.indexOf('@')
  return at >= 0 && at === b.length - 1
}

/** The order of two folded texts, the second a prefix standing for every text that begins so. */
export function orderOfFolded(fa: string, fb: string, prefixed: boolean): number {
  return prefixed && fa.startsWith(fb) ? 0 : compareFolded(fa, fb)
}

/**
 * 4D's `text % keyword`: whether `keyword`, one word (a `@` wildcard allowed), is one of the words
 * of `text`. Several words, or none, never match (`"Alpha Bravo Charlie"%"Alpha Bravo"` is False).
 * Words are what the query engine's `%` finds: runs of letters, digits and `_`.
 */
export function containsKeyword(text: string, keyword: string): boolean {
  countTexts(text, keyword)
  const test = keywordTest(keyword)
  return test !== undefined && keywords(text).some(test)
}

/**
 * What `%` asks of each word of the text for `keyword`: the word itself, or a match of its
 * wildcards; undefined when the keyword is not one word (no text then holds it).
 */
export function keywordTest(keyword: string): ((word: string) => boolean) | undefined {
  const folded = fold(keyword)
  if (foldedKeywords(folded.replaceAll('@', '')).length !== 1) return undefined
  return folded.includes('@') ? matcherOf(keyword) : (word) => word === folded
}
