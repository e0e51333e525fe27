/**
 * @module Finding a text in a text as `Position` and `Replace string` do
 * (docs/commands-legacy/position.md, replace-string.md). By default they compare as 4D's `=`
 * does, case and accents ignored (the core's fold, character by character, so that a position
 * found is a position of the original text); `*` compares character codes. `Position`'s options
 * choose: `sk char codes` (with `sk case insensitive`: A-Z as a-z only), `sk case insensitive`
 * (accents count), `sk diacritic insensitive` (case counts), both (the default), `sk strict`
 * (exact), and `sk whole word` (a match between word boundaries). `@` is a character. Letters
 * that 4D's ICU compares as two (æ and ae) are different here.
 *
 * Keying a text goes through it a character at a time (seconds for a text of 67 million
 * characters): each character keyed, and each match skipped (not a whole word), is a pass of the
 * budget's (context/budget.ts) when the caller gives its running context.
 */
import { fold } from '@entistore/core'
import { UNCOUNTED, type Passes } from '../values/passes.js'

/** How each character is compared. */
export type CharKey = (c: string) => string

const MARKS = /\p{M}/gu
const stripMarks = (c: string): string => c.normalize('NFD').replace(MARKS, '')

export const KEYS = {
  folded: (c: string): string => fold(c),
  exact: (c: string): string => c,
  caseInsensitive: (c: string): string => c.toLowerCase(),
  diacriticInsensitive: (c: string): string => stripMarks(c),
  asciiCaseInsensitive: (c: string): string => (c >= 'A' && c <= 'Z' ? c.toLowerCase() : c),
} as const satisfies Record<string, CharKey>

const CHAR_CODES = 1
const CASE_INSENSITIVE = 2
const DIACRITIC_INSENSITIVE = 4
const WHOLE_WORD = 32

/** The comparison `Position`'s options ask for, and whether a match must be a whole word. */
export function keyOfOptions(options: number): { key: CharKey; wholeWord: boolean } {
  const wholeWord = (options & WHOLE_WORD) !== 0
  const ci = (options & CASE_INSENSITIVE) !== 0
  if ((options & CHAR_CODES) !== 0)
    return { key: ci ? KEYS.asciiCaseInsensitive : KEYS.exact, wholeWord }
  const di = (options & DIACRITIC_INSENSITIVE) !== 0
  const key =
    ci && di ? KEYS.folded : ci ? KEYS.caseInsensitive : di ? KEYS.diacriticInsensitive : KEYS.exact
  return { key, wholeWord }
}

/** A text's keys, one run a character, with where each key unit comes from. */
function keyed(text: string, key: CharKey, rt: Passes): { text: string; origin: number[] } {
  if (key === KEYS.exact) return { text, origin: [] }
  let out = ''
  const origin: number[] = []
  for (let i = 0; i < text.length; i++) {
    if (--rt.ticks < 0) rt.tick()
    const k = key(text[i]!)
    for (let j = 0; j < k.length; j++) origin.push(i)
    out += k
  }
  origin.push(text.length)
  return { text: out, origin }
}

const WORD = /[\p{L}\p{N}_]/u

function isWordEdge(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return true
  return !(WORD.test(text[at - 1]!) && WORD.test(text[at]!))
}

/** A match: its 0-based index in the original text and its length there. */
export interface Match {
  readonly index: number
  readonly length: number
}

/** The first match of `find` in `text` at or after `from` (0-based). */
export function findText(
  find: string,
  text: string,
  from: number,
  key: CharKey,
  wholeWord = false,
  rt: Passes = UNCOUNTED,
): Match | undefined {
  return matchesOf(find, text, from, key, wholeWord, rt).next().value ?? undefined
}

/**
 * Each match of `find` in `text` from `from` on, as `findText` would find them one after the
 * other, each search starting where the last match ended (one character further for an empty
 * one). The text is keyed once: `Replace string` over a text of a million characters made
 * `findText` key it again at each match, a quadratic run of minutes.
 */
export function* matchesOf(
  find: string,
  text: string,
  from: number,
  key: CharKey,
  wholeWord = false,
  rt: Passes = UNCOUNTED,
): Generator<Match, void, void> {
  if (find === '' || from >= text.length) return
  const k = keyed(text, key, rt)
  const f = keyed(find, key, rt).text
  if (f === '') return
  const exact = key === KEYS.exact
  const origin = (i: number): number => (exact ? i : k.origin[i]!)
  // The first key unit that comes from `from` or later.
  let start = exact ? from : firstFrom(k.origin, 0, from)
  for (;;) {
    const at = k.text.indexOf(f, start)
    if (at < 0) return
    const index = origin(at)
    const end = origin(at + f.length)
    if (wholeWord && !(isWordEdge(text, index) && isWordEdge(text, end))) {
      if (--rt.ticks < 0) rt.tick()
      start = at + 1
      continue
    }
    yield { index, length: end - index }
    const next = index + Math.max(1, end - index)
    if (next >= text.length) return
    start = exact ? next : firstFrom(k.origin, at, next)
  }
}

// The first key unit at or after `unit` that comes from character `from` or later (origins only
// grow, so a search that goes on from the last one is linear over all the matches).
function firstFrom(origin: readonly number[], unit: number, from: number): number {
  let i = unit
  while (i < origin.length - 1 && origin[i]! < from) i++
  return i
}
