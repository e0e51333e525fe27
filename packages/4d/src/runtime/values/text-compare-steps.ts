/**
 * @module 4D's comparisons of two texts (text-compare.ts) as work in steps, for a text longer than
 * a piece: folding it (its comparison key) is one native call of seconds at the bounds of sizes
 * (67 million characters with accents: 4.6 s, their words for `%`: 9.9 s) that nothing
 * interrupts. Folded a piece at a time (text-pieces.ts, each piece counted before), the fold is
 * the whole text's, and a call in slices may end its slice between two pieces; the comparison of
 * the two folded texts is then one call of milliseconds. `%` looks for its keyword a piece at a
 * time, cut only between two characters no word spans, and stops at the first piece holding it.
 */
import { fold, foldedKeywords } from '@entistore/core'
import type { Passes } from './passes.js'
import { endsWithItsAt, keywordTest, matcherOf, orderOfFolded } from './text-compare.js'
import { eachPiece, PIECE_LENGTH, piecesSteps } from './text-pieces.js'
import type { Work } from './work.js'

/** Whether comparing `a` and `b` is work for steps: one of them longer than a piece. */
export const longTexts = (a: string, b: string): boolean =>
  a.length > PIECE_LENGTH || b.length > PIECE_LENGTH

// Each function takes the length of a piece last: a test's own, to cut short texts too.
const folding =
  (length: number) =>
  (rt: Passes, text: string): Work<string> =>
    piecesSteps(rt, text, fold, length)

/** `compareTexts(a, b)` in steps. */
export function* compareTextsSteps(
  rt: Passes,
  a: string,
  b: string,
  length = PIECE_LENGTH,
): Work<number> {
  const foldSteps = folding(length)
  const prefixed = endsWithItsAt(b)
  const fa = yield* foldSteps(rt, a)
  const fb = yield* foldSteps(rt, prefixed ? b.slice(0, -1) : b)
  return orderOfFolded(fa, fb, prefixed)
}

/** `textEquals(text, pattern)` in steps. */
export function* textEqualsSteps(
  rt: Passes,
  text: string,
  pattern: string,
  length = PIECE_LENGTH,
): Work<boolean> {
  const foldSteps = folding(length)
  if (pattern.includes('@')) return matcherOf(pattern)(yield* foldSteps(rt, text))
  if (text === pattern) return true
  const folded = yield* foldSteps(rt, text)
  return folded === (yield* foldSteps(rt, pattern))
}

/** `containsKeyword(text, keyword)` in steps. */
export function* containsKeywordSteps(
  rt: Passes,
  text: string,
  keyword: string,
  length = PIECE_LENGTH,
): Work<boolean> {
  const test = keywordTest(keyword)
  if (test === undefined) return false
  return yield* eachPiece(
    rt,
    text,
    (piece) => foldedKeywords(fold(piece)).some(test),
    length,
    apart,
  )
}

// `_`, digits and ASCII letters: the ASCII characters a word is made of (fold.ts's WORD).
const inWord = (c: number): boolean =>
  c >= 128 || c === 95 || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)

// A place no word spans: one side is an ASCII character that no word holds (a space, a comma).
const apart = (before: number, after: number): boolean => !inWord(before) || !inWord(after)
