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
 * characters): each character keyed, and each match taken or skipped (not a whole word), is a pass
 * of the budget's (context/budget.ts) when the caller gives its running context, and a place where
 * a call in slices may stop (`searching` gives way there, values/resumable.ts).
 */
import { fold } from '@entistore/core'
import { UNCOUNTED, type Passes } from '../values/passes.js'
import { runAll, settled, type Resumable } from '../values/resumable.js'

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
interface Keyed {
  text: string
  readonly origin: number[]
}

/** The keys of `text` (whole once the work is done), each character a pass of the budget's. */
function keying(text: string, key: CharKey): [Keyed, Resumable] {
  if (key === KEYS.exact) return [{ text, origin: [] }, () => true]
  const k: Keyed = { text: '', origin: [] }
  let i = 0
  const work: Resumable = (rt) => {
    const origin = k.origin
    let out = k.text
    for (; i < text.length; i++) {
      if (--rt.ticks < 0) {
        k.text = out
        return false
      }
      const c = key(text[i]!)
      for (let j = 0; j < c.length; j++) origin.push(i)
      out += c
    }
    origin.push(text.length)
    k.text = out
    return true
  }
  return [k, settled(work)]
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

/** Each match of `find` in `text` from `from` on (see `searching`), at once. */
export function matchesOf(find: string, text: string, from: number, key: CharKey): Match[] {
  const all: Match[] = []
  const take = (m: Match): boolean => {
    all.push(m)
    return true
  }
  runAll(searching(find, text, from, key, false, take), UNCOUNTED)
  return all
}

/**
 * The search of each match of `find` in `text` from `from` on, given to `take` until it answers
 * false: the first at or after `from` (0-based), then each one after the last, each search
 * starting where the last match ended (one character further for an empty one). The text is keyed
 * once: `Replace string` over a text of a million characters, keyed again at each match, was a
 * quadratic run of minutes (`Position` takes the first match only). The keying, each match taken
 * and each match skipped (not a whole word) are passes of the budget's, where the work gives way
 * (values/resumable.ts) and a call in slices may stop.
 */
export function searching(
  find: string,
  text: string,
  from: number,
  key: CharKey,
  wholeWord: boolean,
  take: (m: Match) => boolean,
): Resumable {
  if (find === '' || from >= text.length) return () => true
  const [k, keyText] = keying(text, key)
  const [f, keyFind] = keying(find, key)
  let search: Resumable | undefined
  return (rt) => {
    if (!keyText(rt) || !keyFind(rt)) return false
    if (f.text === '') return true
    search ??= matching(text, k, f.text, from, key === KEYS.exact, wholeWord, take)
    return search(rt)
  }
}

/** The search of `searching` in the keys of the text, giving way between two matches. */
function matching(
  text: string,
  k: Keyed,
  f: string,
  from: number,
  exact: boolean,
  wholeWord: boolean,
  take: (m: Match) => boolean,
): Resumable {
  const origin = (i: number): number => (exact ? i : k.origin[i]!)
  // The first key unit that comes from `from` or later.
  let start = exact ? from : firstFrom(k.origin, 0, from)
  return (rt) => {
    for (;;) {
      const at = k.text.indexOf(f, start)
      if (at < 0) return true
      const index = origin(at)
      const end = origin(at + f.length)
      if (wholeWord && !(isWordEdge(text, index) && isWordEdge(text, end))) start = at + 1
      else {
        if (!take({ index, length: end - index })) return true
        const next = index + Math.max(1, end - index)
        if (next >= text.length) return true
        start = exact ? next : firstFrom(k.origin, at, next)
      }
      if (--rt.ticks < 0) return false
    }
  }
}

// The first key unit at or after `unit` that comes from character `from` or later (origins only
// grow, so a search that goes on from the last one is linear over all the matches).
function firstFrom(origin: readonly number[], unit: number, from: number): number {
  let i = unit
  while (i < origin.length - 1 && origin[i]! < from) i++
  return i
}
