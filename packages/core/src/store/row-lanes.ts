/**
 * @module The memory a read of one row of a load's columns touches first, gathered once so that
 * a reader can touch it all in one tight loop before it reads the row (BaseRows.warm).
 *
 * A row read at random (a GET by key of 200k rows) finds none of its columns' entries in the
 * processor's caches: the serving thread's other work has evicted them. Written attribute by
 * attribute, the row waits for each entry in turn, between the calls, branches and strings of the
 * writing: an eleven-attribute row spent 4.5 µs in its writer against 1.2 µs when read twice in a
 * row. Loads issued back to back, with nothing depending on them, are waited for together: the
 * same row written after that loop took 1.1 µs less (measured in the server, each other request
 * warmed, 2026-11-29).
 */

/** An array whose entry `i` a read of row `i` reads: each column's own. */
export type Lane = Int32Array | Float64Array | Uint8Array

export class RowLanes {
  /** Arrays whose entry `i` row `i`'s read reads first. */
  readonly direct: Lane[] = []
  /** Byte arrays, each followed by its starts: `bytes[starts[i]]`, a text's first byte. */
  readonly bytes: (Uint8Array | Float64Array)[] = []
  /** Code arrays, each followed by its list: `list[codes[i]]`, a text of a column's list. */
  readonly lists: (Int32Array | string[])[] = []

  /**
   * Reads every entry row `i` reads first, and the ones they point to; returns what it read (a
   * sum of no meaning) so that the loads are not dead code to the compiler.
   */
  touch(i: number): number {
    let sum = 0
    const direct = this.direct
    for (let k = 0; k < direct.length; k++) sum += direct[k]![i]!
    const bytes = this.bytes
    for (let k = 0; k < bytes.length; k += 2)
      sum += (bytes[k] as Uint8Array)[(bytes[k + 1] as Float64Array)[i]!] ?? 0
    const lists = this.lists
    for (let k = 0; k < lists.length; k += 2) {
      const c = (lists[k] as Int32Array)[i]!
      // A hint only: were a list ever replaced after the lanes were gathered, its old codes could
      // name no text of it, and a warm-up must not throw.
      if (c >= 0) sum += (lists[k + 1] as string[])[c]?.length ?? 0
    }
    return sum
  }
}
