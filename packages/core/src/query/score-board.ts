/**
 * @module The scores a vector search keeps for the order by similarity that follows it. Its own
 * file, below both the bound filter (whose vector values carry one) and the scan (which fills it),
 * so that neither imports the other for it.
 */
import type { FloatsAt } from '../values/vector.js'

/**
 * The scores of one search by row id, kept for the order by similarity that follows it (asked
 * for by `linkSimilarity`: `wanted`), and dropped once that order read them (a selection kept as
 * an entity set must not hold 20 bytes a row for its lifetime). A score is read only for the
 * floats it was computed on: a row written since is scored again.
 */
export class ScoreBoard {
  wanted = false
  #scores: Float64Array | undefined
  #data: (Float32Array | undefined)[] | undefined
  #offsets: Int32Array | undefined

  /** Makes room for `rows` row ids, if an order will read the scores. */
  start(rows: number): void {
    if (!this.wanted) return
    this.#scores = new Float64Array(rows)
    this.#data = new Array<Float32Array | undefined>(rows)
    this.#offsets = new Int32Array(rows)
  }

  put(rowId: number, at: FloatsAt, score: number): void {
    if (this.#scores === undefined || rowId >= this.#scores.length) return
    this.#scores[rowId] = score
    this.#data![rowId] = at.data
    this.#offsets![rowId] = at.offset
  }

  /** The score kept for row `rowId` if it was computed on the floats `at` points at; else NaN. */
  get(rowId: number, at: FloatsAt): number {
    const scores = this.#scores
    if (scores === undefined || rowId >= scores.length) return NaN
    return this.#data![rowId] === at.data && this.#offsets![rowId] === at.offset
      ? scores[rowId]!
      : NaN
  }

  release(): void {
    this.#scores = this.#data = this.#offsets = undefined
  }
}
