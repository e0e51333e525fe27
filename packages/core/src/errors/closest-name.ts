/**
 * @module "Did you mean …?" for a mistyped name (a command-line option or command, a dataclass
 * in a model, an attribute in a data file, a query, a REST request): the known names closest by
 * edit distance, when they are close enough to be the one meant.
 *
 * Close means at most a third of the known name's length away (at least one edit, at most two:
 * past that a suggestion is a guess, not a typo), case ignored (`lastname` for `lastName` is a
 * typical slip, 4D's names being case-sensitive). Here, below every other layer, so that the error
 * table's messages can end with it; its caller gives only the names its own caller may see (a REST
 * client is never told a hidden one).
 */

/** The most names a message suggests. */
const MAX_SUGGESTIONS = 3

/** The largest distance at which `known` is suggested. */
const reach = (known: string): number => Math.min(2, Math.max(1, Math.floor(known.length / 3)))

/**
 * The optimal string alignment distance between `a` and `b`: the fewest insertions, deletions,
 * substitutions and swaps of two neighbouring characters that turn one into the other (`prot` is
 * one swap from `port`). Past `limit` it stops and answers `limit + 1`: a 100 KB name sent by a
 * client costs nothing against short known names.
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  // Three rows of the dynamic-programming table: the one before the previous is for swaps.
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let least = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1)
      row.push(d)
      if (d < least) least = d
    }
    // A row's least value never falls in the rows after it.
    if (least > limit) return limit + 1
    before = previous
    previous = row
  }
  return previous[b.length]!
}

/**
 * The names in `known` close to `typed` (see the module comment), closest first, the first listed
 * of equally close ones first; `max` of them at most.
 */
export function closestNames(
  typed: string,
  known: Iterable<string>,
  max: number = MAX_SUGGESTIONS,
): string[] {
  if (typed === '') return []
  const wanted = typed.toLowerCase()
  const near: { name: string; distance: number }[] = []
  for (const name of new Set(known)) {
    if (name === typed) continue
    const limit = reach(name)
    const distance = editDistance(wanted, name.toLowerCase(), limit)
    if (distance <= limit) near.push({ name, distance })
  }
  // A stable sort: equally close names stay in the order given (a model's order).
  near.sort((x, y) => x.distance - y.distance)
  return near.slice(0, max).map((n) => n.name)
}

/** The name in `known` closest to `typed`, if one is close: a typo, not another word. */
export function closest(typed: string, known: Iterable<string>): string | undefined {
  return closestNames(typed, known, 1)[0]
}

/**
 * The end of a message for the unknown `typed`: ` (did you mean "x"?)`, ` (did you mean "x", "y"
 * or "z"?)`, or '' when no name in `known` is close.
 */
export function didYouMean(typed: string, known: Iterable<string>): string {
  const names = closestNames(typed, known).map((n) => JSON.stringify(n))
  if (names.length === 0) return ''
  const last = names.pop()!
  return ` (did you mean ${names.length === 0 ? last : `${names.join(', ')} or ${last}`}?)`
}
