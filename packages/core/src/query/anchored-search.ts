/**
 * @module The anchored patterns of an `IN` (`x` equals, `x@` begins, `@x` ends) walked in tries:
 * the values and prefixes in one read from the text's start, the suffixes in one read from its end.
 * A walk stops where no pattern goes on, most often after a few characters, so their number costs
 * little. Compares UTF-16 code units, as `===`, `startsWith` and `endsWith` do (multi-search.ts).
 */

// ---------------------------------------------------------------- anchored patterns

// A trie's table holds states × character classes entries: past this, tries of Maps.
const TRIE_MAX = 1 << 21

// A dense trie's entries besides the next state (premultiplied by the number of classes, ≥ 0): no
// pattern goes on (DEAD), or the state ends a prefix or a suffix (HIT): the text has it.
const DEAD = -1

const HIT = -2

/**
 * A test of whether a text equals one of `exact`, begins with one of `prefixes` or ends with one of
 * `suffixes` (any strings), comparing UTF-16 code units as `===`, `startsWith` and `endsWith` do:
 * what an IN (or an OR) of `x`, `x@` and `@x` patterns asks of each folded value. One pattern is one
 * native comparison. More are walked in tries, the exact values and prefixes in one read from the
 * text's first character, the suffixes in one read from its last: each text is read once from each
 * end, and only while some pattern still agrees with it, whatever their number. Past `tableMax`
 * entries a table (states × classes) is too large: the tries' edges are then kept in Maps.
 */
export function anchoredAny(
  exact: Iterable<string>,
  prefixes: readonly string[],
  suffixes: readonly string[],
  tableMax = TRIE_MAX,
): (text: string) => boolean {
  const values = [...new Set(exact)]
  const begins = [...new Set(prefixes)]
  const ends = [...new Set(suffixes)]
  // The empty prefix or suffix is in every text.
  if (begins.includes('') || ends.includes('')) return () => true
  const count = values.length + begins.length + ends.length
  if (count === 0) return () => false
  if (count === 1) {
    if (values.length === 1) {
      const value = values[0]!
      return (text) => text === value
    }
    if (begins.length === 1) {
      const prefix = begins[0]!
      return (text) => text.startsWith(prefix)
    }
    const suffix = ends[0]!
    return (text) => text.endsWith(suffix)
  }
  const classes = classesOf([...values, ...begins, ...ends])
  const fits = (strings: readonly string[]): boolean =>
    (strings.reduce((sum, s) => sum + s.length, 0) + 1) * classes.width <= tableMax
  if (!fits([...values, ...begins]) || !fits(ends)) return sparseTries(values, begins, ends)
  const forward =
    begins.length + values.length > 0 ? trie(begins, values, false, classes) : undefined
  const backward = ends.length > 0 ? trie(ends, [], true, classes) : undefined
  // In one function: no call per walk.
  const { classOf } = classes
  const next = forward?.next
  const exactAt = forward?.exactAt
  const back = backward?.next
  return (text) => {
    const n = text.length
    let s = 0
    if (next !== undefined) {
      let i = 0
      for (; i < n; i++) {
        s = next[s + classOf[text.charCodeAt(i)]!]!
        if (s < 0) break
      }
      // The whole text read (i === n, s a state): it may end an exact value.
      if (s === HIT || (i === n && exactAt![s] === 1)) return true
      s = 0
    }
    if (back !== undefined)
      for (let j = n - 1; j >= 0; j--) {
        s = back[s + classOf[text.charCodeAt(j)]!]!
        if (s < 0) return s === HIT
      }
    return false
  }
}

/** The code units of some strings as classes 1 … width − 1; 0 for a unit none of them has. */
interface Classes {
  readonly classOf: Uint16Array
  readonly width: number
}

export function classesOf(strings: readonly string[]): Classes {
  const classOf = new Uint16Array(1 << 16)
  let width = 1
  for (const s of strings)
    for (let i = 0; i < s.length; i++) {
      const unit = s.charCodeAt(i)
      if (classOf[unit] === 0) classOf[unit] = width++
    }
  return { classOf, width }
}

const unitAt = (s: string, i: number, reversed: boolean): number =>
  s.charCodeAt(reversed ? s.length - 1 - i : i)

/**
 * The trie of `anchored` strings (prefixes, or suffixes when `reversed`: a text that reaches the
 * end of one has it) and of `exact` ones (a text has one when it ends where one ends) as one table:
 * `next[state + class]` is the next state (premultiplied by the width), DEAD or HIT, and
 * `exactAt[state]` is 1 where an exact string ends.
 */
export function trie(
  anchored: readonly string[],
  exact: readonly string[],
  reversed: boolean,
  { classOf, width }: Classes,
): { next: Int32Array; exactAt: Uint8Array } {
  let total = 0
  for (const s of anchored) total += s.length
  for (const s of exact) total += s.length
  // Plain state numbers first, premultiplied once their number is known.
  const next = new Int32Array((total + 1) * width).fill(DEAD)
  const hits = new Uint8Array(total + 1)
  const ends = new Uint8Array(total + 1)
  let states = 1
  const path = (s: string): number => {
    let state = 0
    for (let i = 0; i < s.length; i++) {
      const at = state * width + classOf[unitAt(s, i, reversed)]!
      if (next[at]! < 0) next[at] = states++
      state = next[at]!
    }
    return state
  }
  for (const s of anchored) hits[path(s)] = 1
  for (const s of exact) ends[path(s)] = 1
  const table = new Int32Array(states * width)
  const exactAt = new Uint8Array(states * width)
  for (let state = 0; state < states; state++) {
    exactAt[state * width] = ends[state]!
    for (let c = 0; c < width; c++) {
      const to = next[state * width + c]!
      table[state * width + c] = to < 0 ? DEAD : hits[to] ? HIT : to * width
    }
  }
  return { next: table, exactAt }
}

/**
 * anchoredAny's walks for lists too large for tables (many thousands of patterns): the same tries
 * with each state's edges in a Map by code unit.
 */
function sparseTries(
  values: readonly string[],
  begins: readonly string[],
  ends: readonly string[],
): (text: string) => boolean {
  const walk = (anchored: readonly string[], exact: readonly string[], reversed: boolean) => {
    const edges: Map<number, number>[] = [new Map()]
    const hits: boolean[] = [false]
    const exactAt: boolean[] = [false]
    const path = (s: string): number => {
      let state = 0
      for (let i = 0; i < s.length; i++) {
        const unit = unitAt(s, i, reversed)
        let to = edges[state]!.get(unit)
        if (to === undefined) {
          to = edges.push(new Map()) - 1
          hits.push(false)
          exactAt.push(false)
          edges[state]!.set(unit, to)
        }
        state = to
      }
      return state
    }
    for (const s of anchored) hits[path(s)] = true
    for (const s of exact) exactAt[path(s)] = true
    return (text: string): boolean => {
      const n = text.length
      let s = 0
      for (let i = 0; i < n; i++) {
        const to = edges[s]!.get(text.charCodeAt(reversed ? n - 1 - i : i))
        if (to === undefined) return false
        if (hits[to]) return true
        s = to
      }
      return exactAt[s]!
    }
  }
  const forward = walk(begins, values, false)
  const backward = walk(ends, [], true)
  return (text) => forward(text) || backward(text)
}
