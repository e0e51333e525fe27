/**
 * @module "Did you mean …?" for a mistyped name (a command-line option or command, a dataclass
 * in a model, an attribute in a data file): the closest known name by edit distance, when it is
 * close enough to be the one meant.
 */

/**
 * The optimal string alignment distance between `a` and `b`: the fewest insertions, deletions,
 * substitutions and swaps of two neighbouring characters that turn one into the other (`prot` is
 * one swap from `port`).
 */
export function editDistance(a: string, b: string): number {
  // Three rows of the dynamic-programming table: the one before the previous is for swaps.
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1)
      row.push(d)
    }
    before = previous
    previous = row
  }
  return previous[b.length]!
}

/**
 * The name in `known` closest to `typed`, if it is at most a third of its length away (at least
 * 1): a typo, not another word. The first of equally close names wins.
 */
export function closest(typed: string, known: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  for (const name of known) {
    const d = editDistance(typed, name)
    if (d < bestDistance && d <= Math.max(1, Math.floor(name.length / 3))) {
      best = name
      bestDistance = d
    }
  }
  return best
}

/** ` (did you mean "x"?)` for the name in `known` closest to `typed`, or '' when none is close. */
export function didYouMean(typed: string, known: Iterable<string>): string {
  const near = closest(typed, [...known])
  return near === undefined ? '' : ` (did you mean ${JSON.stringify(near)}?)`
}
