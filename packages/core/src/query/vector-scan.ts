/**
 * @module The exact scan of a vector search, and the order by similarity that follows it, at the
 * speed of a plain loop over Float32Arrays: each row's floats are read where they are stored
 * (store/vector-cursor.ts), scored in one pass (values/vector.ts), and compared, with no object
 * made a row. A search whose result is ordered by its similarity keeps each row's score
 * (`ScoreBoard`, score-board.ts), so that the order reads them instead of scoring every row again.
 */
import { fail } from '../errors/datastore-error.js'
import type { Table } from '../store/table.js'
import { cosineAt, dotAt, squaredDistanceAt, type FloatsAt } from '../values/vector.js'
import type { BoundComparison, Similarity, VectorCmpValue } from './bound.js'
import { type Work } from './slices.js'
import { steps } from './row-steps.js'

/** The score of `n` floats of `at` against the query's `q` (its norm `qNorm`). */
type Scorer = (at: FloatsAt) => number

export function scorer(value: Pick<VectorCmpValue, 'query' | 'metric'>): Scorer {
  const q = value.query.toFloat32Array()
  const n = q.length
  const qNorm = value.query.norm
  switch (value.metric) {
    case 'cosine':
      return (at) => cosineAt(q, 0, qNorm, at.data, at.offset, n)
    case 'dot':
      return (at) => dotAt(q, 0, at.data, at.offset, n)
    case 'euclidean':
      return (at) => Math.sqrt(squaredDistanceAt(q, 0, at.data, at.offset, n))
  }
}

/** The rows of a table whose vector passes a search, every row read once, in steps. */
export function* vectorScan(
  c: BoundComparison,
  value: VectorCmpValue,
  table: Table,
): Work<number[]> {
  const name = c.operand.attr.name
  const at = table.vectorCursor(name)
  const score = scorer(value)
  const n = value.query.length
  const t = value.threshold
  const op = c.op
  const board = value.scores
  const length = table.scanLength
  board.start(length)
  const out: number[] = []
  yield* steps(length, (from, to) => {
    for (let i = from; i < to; i++) {
      if (!at.at(i)) continue
      if (at.length !== n) wrongSize(c, n, at.length)
      const s = score(at)
      board.put(i, at, s)
      if (op === 'ge' ? s >= t : op === 'gt' ? s > t : op === 'le' ? s <= t : s < t) out.push(i)
    }
  })
  return out
}

export function wrongSize(c: BoundComparison, given: number, stored: number): never {
  return fail('InvalidComparison', [
    `the vector given for ${c.dataClass.name}.${c.operand.attr.name} has ${given} dimensions, a stored one ${stored}`,
  ])
}

/**
 * The sort key of a row for `similarity`: the score of the search's metric itself, as 4D orders it
 * (21 R4 API/DataClassClass.md, "Query by vector similarity": ascending by default, `desc` for
 * cosine and dot, ascending for a euclidean distance, the nearest first; docs/compat.md); null for
 * a row with no vector of the query's size. Reads the search's kept score when there is one.
 */
export function similarityReader(table: Table, attribute: string, similarity: Similarity) {
  const at = table.vectorCursor(attribute)
  const score = scorer(similarity)
  const n = similarity.query.length
  const board = similarity.scores
  return (rowId: number): number | null => {
    if (!at.at(rowId) || at.length !== n) return null
    const kept = board ? board.get(rowId, at) : NaN
    return kept === kept ? kept : score(at)
  }
}
