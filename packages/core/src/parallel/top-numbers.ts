/**
 * @module The `k` smallest (key, row id) pairs of a stream of them: a bounded max-heap in two typed
 * arrays whose root is the worst pair kept, so that most pairs are refused by one comparison with
 * it. What an ordering by one numeric attribute keeps of its rows (query/top-k.ts), and what each
 * worker keeps of its part (kernels.ts `topNumbers`), the parts then merged by the same heap.
 */
export class TopNumbers {
  readonly keys: Float64Array
  readonly rows: Float64Array
  size = 0

  constructor(readonly k: number) {
    this.keys = new Float64Array(k)
    this.rows = new Float64Array(k)
  }

  /** Offers the pair (key, row): kept if it is among the `k` smallest so far (ties by row id). */
  offer(key: number, row: number): void {
    const { keys, rows, k } = this
    if (this.size < k) {
      // Sift up: the new entry climbs while it is worse than its parent.
      let at = this.size++
      while (at > 0) {
        const up = (at - 1) >> 1
        if (keys[up]! > key || (keys[up] === key && rows[up]! > row)) break
        keys[at] = keys[up]!
        rows[at] = rows[up]!
        at = up
      }
      keys[at] = key
      rows[at] = row
    } else if (key < keys[0]! || (key === keys[0] && row < rows[0]!)) {
      // Better than the worst kept: it replaces the root, which sifts down.
      let at = 0
      for (;;) {
        const l = 2 * at + 1
        if (l >= k) break
        const r = l + 1
        const c =
          r < k && (keys[r]! > keys[l]! || (keys[r] === keys[l] && rows[r]! > rows[l]!)) ? r : l
        if (keys[c]! < key || (keys[c] === key && rows[c]! < row)) break
        keys[at] = keys[c]!
        rows[at] = rows[c]!
        at = c
      }
      keys[at] = key
      rows[at] = row
    }
  }

  /** The row ids kept, best first. */
  sortedRows(): number[] {
    const { keys, rows } = this
    const order = Array.from({ length: this.size }, (_, i) => i).sort(
      (a, b) => keys[a]! - keys[b]! || rows[a]! - rows[b]!,
    )
    return order.map((i) => rows[i]!)
  }
}
