/**
 * @module The row ids a scanning kernel finds, in a buffer that grows by doubling: most scans find
 * few rows, and a part's answer is then a small typed array to hand back.
 */
import { rowIdBuffer } from './shared-arrays.js'

export class RowIdsFound {
  #out = new Int32Array(64)
  #n = 0

  add(rowId: number): void {
    if (this.#n === this.#out.length) {
      const grown = new Int32Array(this.#n * 2)
      grown.set(this.#out)
      this.#out = grown
    }
    this.#out[this.#n++] = rowId
  }

  /** The rows found, cut to their number: shared when many (a worker's answer is then not copied). */
  rows(): Int32Array {
    const rows = rowIdBuffer(this.#n)
    rows.set(this.#out.subarray(0, this.#n))
    return rows
  }
}
