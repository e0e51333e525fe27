/** Sample algorithms for work-meter.test.ts, imported only through countWork (see work-meter.ts). */

/** n iterations of constant work. */
export const linear = (n: number) => (): number => {
  let s = 0
  for (let i = 0; i < n; i++) s += i % 4 === 0 ? 1 : 0
  return s
}

/** A look back over everything seen so far, for each of n items: the mistake to catch. */
export const quadratic = (n: number) => (): number[] => {
  const seen: number[] = []
  for (let i = 0; i < n; i++) {
    let found = false
    for (const x of seen) if (x === i) found = true
    if (!found) seen.push(i)
  }
  return seen
}
