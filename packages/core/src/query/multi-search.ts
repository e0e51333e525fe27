import { anchoredAny, classesOf } from './anchored-search.js' /**
 * @module Whether a text matches any of several patterns, reading the text once: what an `IN` (or
 * an `OR`) of patterns asks of each folded value of a scan (matchesAny).
 *
 * The contains patterns (`@x@`) are searched one of three ways, the cheapest chosen by an estimate
 * (searchKind):
 *
 * - `each`: one native `includes` per string. One such pass is hard to beat in JavaScript (V8
 *   searches in native code), so it stays the way for one string, and for two to four short ones;
 *   its cost grows with their number.
 * - `skipping` (Wu–Manber): a window as long as the shortest string (at most WINDOW_MAX) slides
 *   along the text. Its last two characters say how far it can jump without passing over an
 *   occurrence; where they end the beginning of some strings, those are compared there. It reads a
 *   fraction of the text: the way for a few to a few dozen strings of some length.
 * - `automaton` (Aho–Corasick): every character read once, one table lookup each, whatever the
 *   number and the length of the strings: the way for many strings, or short ones.
 *
 * The anchored ones (`x` equals, `x@` begins, `@x` ends) are walked in tries (anchoredAny): the
 * values and prefixes in one read from the text's start, the suffixes in one read from its end. A
 * walk stops where no pattern goes on, most often after a few characters, so their number costs
 * little (190 mixed patterns over 200k names: 165 ms checked one by one, 15 ms so). When the
 * contains patterns take the automaton, the anchored ones join them in it, between marks for the
 * text's start and end: one read of each text for all.
 *
 * All compare UTF-16 code units, as `===`, `startsWith`, `endsWith` and `includes` do, so they give
 * their answers for any text (property tests hold them to it).
 */

/** How `containsAny` searches. */
export type SearchKind = 'each' | 'skipping' | 'automaton'

// Longer windows jump further (and the jumps fit in a byte).
const WINDOW_MAX = 12
// The pair table: two code units hashed into 14 bits (exact for ASCII pairs).
const PAIR_BITS = 14
const PAIR_MASK = (1 << PAIR_BITS) - 1
// The automaton's table holds states × character classes entries: past this, `each`.
const AUTOMATON_MAX = 1 << 21

// The estimates, in native `includes` passes over a text, were fitted to measures on the text
// benchmark's data (≈250-character folded texts, where one `includes` costs ≈ 0.6 ns a
// character): the automaton costs about four passes whatever the strings; skipping with a window
// of w about 7/(w − 1) (its jumps are at most w − 1 characters), plus 1/16 for each string (each
// adds pairs that shorten jumps or stop the window). For 10 strings of 5+ characters: skipping
// ≈ 2.4 passes; for 100: the automaton.
const AUTOMATON_COST = 4
const skippingCost = (strings: number, window: number): number => 7 / (window - 1) + strings / 16

/** The cheapest way to search for `needles`. */
export function searchKind(needles: readonly string[]): SearchKind {
  const distinct = new Set(needles)
  // The empty string is in every text: no search at all.
  if (distinct.size <= 1 || distinct.has('')) return 'each'
  let shortest = Infinity
  let total = 0
  const units = new Set<number>()
  for (const n of distinct) {
    shortest = Math.min(shortest, n.length)
    total += n.length
    for (let i = 0; i < n.length; i++) units.add(n.charCodeAt(i))
  }
  const k = distinct.size
  // A window of one character cannot jump: its cost is 7/0, Infinity.
  const skipping = skippingCost(k, Math.min(shortest, WINDOW_MAX))
  const automaton = (total + 1) * (units.size + 1) <= AUTOMATON_MAX ? AUTOMATON_COST : Infinity
  if (k <= skipping && k <= automaton) return 'each'
  return skipping <= automaton ? 'skipping' : 'automaton'
}

/** A test of whether a text contains one of `needles` (any strings), searched as `kind` says. */
export function containsAny(
  needles: readonly string[],
  kind: SearchKind = searchKind(needles),
): (text: string) => boolean {
  const distinct = [...new Set(needles)]
  if (distinct.includes('')) return () => true
  if (distinct.length === 0) return () => false
  switch (kind) {
    case 'each':
      return each(distinct)
    case 'skipping':
      return skipping(distinct)
    case 'automaton':
      return automaton(distinct)
  }
}

function each(needles: readonly string[]): (text: string) => boolean {
  if (needles.length === 1) {
    const needle = needles[0]!
    return (text) => text.includes(needle)
  }
  return (text) => {
    for (let i = 0; i < needles.length; i++) if (text.includes(needles[i]!)) return true
    return false
  }
}

/** The hash of the two code units of `s` that end at `end`. */
const pairAt = (s: string, end: number): number =>
  ((s.charCodeAt(end - 1) << 7) ^ s.charCodeAt(end)) & PAIR_MASK

/**
 * Wu–Manber with pairs of code units, over non-empty `needles`. The window is `w` units, the length
 * of the shortest needle (at most WINDOW_MAX); only the first `w` units of each needle place it.
 * `jump[pair]` is how far the window's end may move when the window ends with `pair`: the least
 * distance from that pair to the end of a needle's first `w` units (`w − 1` when no needle has it
 * there). A hash collision only lowers a jump. Zero means some needles' first `w` units end with
 * the pair: those are compared at the window's start. No occurrence is jumped over: had the window
 * ended `d` units before the end of an occurrence's first `w` units, its pair would sit inside them,
 * at distance `d` from their end, and the jump would be at most `d`.
 */
function skipping(needles: readonly string[]): (text: string) => boolean {
  let w = WINDOW_MAX
  for (const n of needles) w = Math.min(w, n.length)
  // A window needs a pair (searchKind never asks for less).
  if (w < 2) return automaton(needles)
  const jump = new Uint8Array(1 << PAIR_BITS).fill(w - 1)
  // For a pair that ends some needles' first `w` units: 1 + the position of their list.
  const listOf = new Uint16Array(1 << PAIR_BITS)
  const lists: string[][] = []
  for (const n of needles) {
    for (let end = 1; end < w; end++) {
      const pair = pairAt(n, end)
      jump[pair] = Math.min(jump[pair]!, w - 1 - end)
    }
    const pair = pairAt(n, w - 1)
    if (listOf[pair] === 0) listOf[pair] = lists.push([])
    lists[listOf[pair]! - 1]!.push(n)
  }
  return (text) => {
    const length = text.length
    for (let end = w - 1; end < length;) {
      const pair = ((text.charCodeAt(end - 1) << 7) ^ text.charCodeAt(end)) & PAIR_MASK
      const by = jump[pair]!
      if (by !== 0) {
        end += by
        continue
      }
      const list = lists[listOf[pair]! - 1]!
      const start = end - w + 1
      for (let i = 0; i < list.length; i++) if (text.startsWith(list[i]!, start)) return true
      end++
    }
    return false
  }
}

/**
 * Aho–Corasick over non-empty `needles`: every code unit of the text read once, one table lookup
 * each, until one of them ends there.
 */
function automaton(needles: readonly string[]): (text: string) => boolean {
  const { classOf, width } = classesOf(needles)
  const table = automatonTable(
    needles.map((n) => classesIn(n, classOf)),
    width,
  )
  return (text) => {
    let state = 0
    for (let i = 0; i < text.length; i++) {
      state = table[state + classOf[text.charCodeAt(i)]!]!
      if (state < 0) return true
    }
    return false
  }
}

/** The classes of the code units of `s`, in order. */
const classesIn = (s: string, classOf: Uint16Array): number[] =>
  Array.from({ length: s.length }, (_, i) => classOf[s.charCodeAt(i)]!)

/**
 * The Aho–Corasick automaton of non-empty `needles` (sequences of classes below `width`) as one
 * table: `table[state + class]` is the next state (premultiplied by the width), or −1 when that
 * state ends a needle: the text then contains one, and the search stops.
 */
function automatonTable(needles: readonly (readonly number[])[], width: number): Int32Array {
  let total = 0
  for (const n of needles) total += n.length
  // The trie of the needles: next[state * width + class], −1 where it has no edge.
  const next = new Int32Array((total + 1) * width).fill(-1)
  const ends = new Uint8Array(total + 1)
  let states = 1
  for (const n of needles) {
    let state = 0
    for (const c of n) {
      const at = state * width + c
      if (next[at]! < 0) next[at] = states++
      state = next[at]!
    }
    ends[state] = 1
  }
  // Breadth first, so that a state's fallback (the longest proper suffix of its path that is a
  // path of the trie) is complete before the state: its missing edges become its fallback's, and
  // it ends a needle if its fallback does.
  const fallback = new Int32Array(states)
  const queue = new Int32Array(states)
  let tail = 0
  for (let c = 0; c < width; c++) {
    if (next[c]! < 0) next[c] = 0
    else queue[tail++] = next[c]!
  }
  for (let head = 0; head < tail; head++) {
    const state = queue[head]!
    const back = fallback[state]!
    if (ends[back]) ends[state] = 1
    for (let c = 0; c < width; c++) {
      const at = state * width + c
      const via = next[back * width + c]!
      if (next[at]! < 0) next[at] = via
      else {
        fallback[next[at]!] = via
        queue[tail++] = next[at]!
      }
    }
  }
  const table = new Int32Array(states * width)
  for (let i = 0; i < table.length; i++) table[i] = ends[next[i]!] ? -1 : next[i]! * width
  return table
}

// ---------------------------------------------------------------- every form at once

/** The patterns of an IN on folded text by form: `x`, `x@`, `@x` and `@x@` (their texts). */
export interface PatternForms {
  readonly exact: Iterable<string>
  readonly prefixes: readonly string[]
  readonly suffixes: readonly string[]
  readonly contains: readonly string[]
}

/**
 * How matchesAny reads a text: not at all (an empty prefix, suffix or contained text is in every
 * text), in anchoredAny's tries, in containsAny's search, in both, or in one automaton for all.
 */
type Reading = 'every' | 'anchored' | 'contains' | 'both' | 'automaton'

interface Distinct {
  readonly values: string[]
  readonly begins: string[]
  readonly ends: string[]
  readonly contains: string[]
}

const distinctForms = (f: PatternForms): Distinct => ({
  values: [...new Set(f.exact)],
  begins: [...new Set(f.prefixes)],
  ends: [...new Set(f.suffixes)],
  contains: [...new Set(f.contains)],
})

function readingOf(d: Distinct): Reading {
  if (d.begins.includes('') || d.ends.includes('') || d.contains.includes('')) return 'every'
  if (d.contains.length === 0) return 'anchored'
  if (d.values.length + d.begins.length + d.ends.length === 0) return 'contains'
  // The contains patterns read every unit of the text in an automaton anyway: the anchored ones
  // join them there (two more lookups a text) rather than walk tries besides.
  return searchKind(d.contains) === 'automaton' && withMarksFits(d) ? 'automaton' : 'both'
}

/**
 * A test of whether a text equals one of `exact`, begins with one of `prefixes`, ends with one of
 * `suffixes` or contains one of `contains` (UTF-16 code units, as `===`, `startsWith`, `endsWith`
 * and `includes` compare them), reading it once for all of them: what an IN (or an OR) of
 * patterns asks of each folded value of a scan. The anchored ones walk anchoredAny's tries, the
 * contains ones are searched as containsAny does, or, when that search is an automaton, all of
 * them are in one automaton run over the text between a start mark and an end mark (`x` is the
 * needle ⟨start⟩x⟨end⟩, `x@` ⟨start⟩x, `@x` x⟨end⟩).
 */
export function matchesAny(forms: PatternForms): (text: string) => boolean {
  const d = distinctForms(forms)
  switch (readingOf(d)) {
    case 'every':
      return () => true
    case 'anchored':
      return anchoredAny(d.values, d.begins, d.ends)
    case 'contains':
      return containsAny(d.contains)
    case 'automaton':
      return withMarks(d)
    case 'both': {
      const anchored = anchoredAny(d.values, d.begins, d.ends)
      const search = containsAny(d.contains)
      return (text) => anchored(text) || search(text)
    }
  }
}

/**
 * How many of `forms`' patterns matchesAny checks together in one read of a text (0 when it checks
 * each by itself): what a plan says of a scan.
 */
export function patternsTogether(forms: PatternForms): number {
  const d = distinctForms(forms)
  const anchored = d.values.length + d.begins.length + d.ends.length
  const contains = d.contains.length
  const reading = readingOf(d)
  if (reading === 'every') return 0
  if (reading === 'automaton') return anchored + contains
  const searched = contains > 0 && searchKind(d.contains) !== 'each' ? contains : 0
  return (anchored > 1 ? anchored : 0) + searched
}

/** Whether withMarks's table (its needles' units and two marks) fits AUTOMATON_MAX. */
function withMarksFits(d: Distinct): boolean {
  const strings = [...d.values, ...d.begins, ...d.ends, ...d.contains]
  const units = new Set<number>()
  let total = 0
  for (const s of strings) {
    total += s.length + 2
    for (let i = 0; i < s.length; i++) units.add(s.charCodeAt(i))
  }
  return (total + 1) * (units.size + 3) <= AUTOMATON_MAX
}

/** The automaton of every form, the anchored ones with marks (see matchesAny). */
function withMarks(d: Distinct): (text: string) => boolean {
  const classes = classesOf([...d.values, ...d.begins, ...d.ends, ...d.contains])
  const { classOf } = classes
  // Two classes that no code unit has.
  const START = classes.width
  const END = classes.width + 1
  const units = (s: string): number[] => classesIn(s, classOf)
  const table = automatonTable(
    [
      ...d.values.map((s) => [START, ...units(s), END]),
      ...d.begins.map((s) => [START, ...units(s)]),
      ...d.ends.map((s) => [...units(s), END]),
      ...d.contains.map(units),
    ],
    classes.width + 2,
  )
  const first = table[START]!
  return (text) => {
    // The start mark read: no needle ends there (none is empty).
    let state = first
    for (let i = 0; i < text.length; i++) {
      state = table[state + classOf[text.charCodeAt(i)]!]!
      if (state < 0) return true
    }
    return table[state + END]! < 0
  }
}
