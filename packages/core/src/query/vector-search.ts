/**
 * @module Vector similarity in queries (4D 21): `embedding >= :1` with `:1` a vector comparison
 * `{ vector, metric, threshold }`, and the order by similarity that may follow it (21 R2).
 *
 * A comparison's score is the metric between the stored vector and the query's: cosine (the
 * default) and dot are similarities, euclidean a distance; the comparator (`<`, `<=`, `>`, `>=`)
 * compares the score with the threshold (default 0.5), as 4D's `$filter` page describes. A row
 * with no vector never matches. The scan reads each vector where it is stored (a view on its load's
 * floats, or the Vector a write stored) and computes in one pass: no copy, no index.
 */
import { fail } from '../errors/datastore-error.js'
import type { DataClassDef, StorageAttributeDef } from '../schema/definitions.js'
import type { NearestState } from '../indexes/nearest-index.js'
import type { Table } from '../store/table.js'
import {
  toVector,
  Vector,
  VECTOR_METRICS,
  VectorError,
  type VectorMetric,
} from '../values/vector.js'
import type { ComparisonOp } from './ast.js'
import { ScoreBoard } from './score-board.js'
import { wrongSize } from './vector-scan.js'
import { once } from './slices.js'
import type {
  BoundComparison,
  BoundFilter,
  BoundOrderKey,
  CmpValue,
  Similarity,
  VectorCmpValue,
} from './bound.js'

/** 4D's defaults (`$filter`, "Vector similarity"). */
export const DEFAULT_METRIC: VectorMetric = 'cosine'
export const DEFAULT_THRESHOLD = 0.5

const SIMILARITY_OPS: ReadonlySet<ComparisonOp> = new Set(['lt', 'le', 'gt', 'ge'])

const invalid = (detail: string): never => fail('InvalidComparison', [detail])

/**
 * `where op raw` on the vector attribute `attr`, where `raw` is the placeholder's value: an object
 * `{ vector: number[] | Vector, metric?, threshold? }` (a Vector alone is `{ vector }`).
 */
export function vectorValue(
  where: string,
  op: ComparisonOp,
  raw: unknown,
  attribute: string,
): VectorCmpValue {
  if (!SIMILARITY_OPS.has(op))
    invalid(
      `${where} is a vector: compare its similarity with <, <=, > or >= (or compare it with null)`,
    )
  const given: Record<string, unknown> =
    raw instanceof Vector || Array.isArray(raw)
      ? { vector: raw }
      : typeof raw === 'object' && raw !== null
        ? (raw as Record<string, unknown>)
        : invalid(
            `${where} needs a vector comparison {"vector": [numbers], "metric": "cosine", "threshold": 0.5} as its placeholder's value`,
          )
  if (!Object.hasOwn(given, 'vector'))
    invalid(`the vector comparison of ${where} has no "vector" (an array of numbers)`)
  for (const k of Object.keys(given))
    if (!COMPARISON_KEYS.has(k))
      invalid(
        `the vector comparison of ${where} has an unknown property "${k}" (vector, metric, threshold, approximate, ef)`,
      )
  let query: Vector
  try {
    query = toVector(given.vector)
  } catch (e) {
    if (!(e instanceof VectorError)) throw e
    return invalid(`the "vector" of ${where}'s comparison: ${e.message}`)
  }
  const metric = given.metric ?? DEFAULT_METRIC
  if (typeof metric !== 'string' || !(VECTOR_METRICS as readonly string[]).includes(metric))
    invalid(`unknown metric ${JSON.stringify(metric)} for ${where} (cosine, dot or euclidean)`)
  const threshold = given.threshold ?? DEFAULT_THRESHOLD
  if (typeof threshold !== 'number' || !Number.isFinite(threshold))
    invalid(`the "threshold" of ${where}'s comparison must be a number`)
  const approximate = approximation(where, given.approximate, given.ef)
  const m = metric as VectorMetric
  const t = threshold as number
  const what = m === 'euclidean' ? 'euclidean distance' : `${m} similarity`
  return {
    kind: 'vector',
    query,
    metric: m,
    threshold: t,
    shown: `${t} (${what} to a vector of ${query.length} dimensions)`,
    // One board for the request's runs (a REST read runs again once its slices are done: the
    // second run's order reads the scores the first run's scan kept).
    scores: once(`vector scores ${attribute} ${m} ${fingerprint(query)}`, () => new ScoreBoard()),
    ...(approximate ? { approximate } : {}),
  }
}

/** A hash of a vector's floats (FNV-1a over their bits): two searches of one request told apart. */
function fingerprint(v: Vector): string {
  const bits = new Uint32Array(v.toFloat32Array().buffer)
  let h = 0x811c9dc5
  for (let i = 0; i < bits.length; i++) h = Math.imul(h ^ bits[i]!, 0x01000193)
  return `${v.length}:${(h >>> 0).toString(16)}`
}

const COMPARISON_KEYS: ReadonlySet<string> = new Set([
  'vector',
  'metric',
  'threshold',
  'approximate',
  'ef',
])

/** The candidates an approximate search reads by default, and at most. */
export const DEFAULT_EF = 100
export const MOST_EF = 10_000

/**
 * Entistore's extension: `"approximate": true` lets an approximate index answer (with `ef`, the
 * candidates it reads, default 100); absent or false, the search is exact, as 4D's.
 */
function approximation(
  where: string,
  approximate: unknown,
  ef: unknown,
): { ef: number } | undefined {
  if (approximate !== undefined && typeof approximate !== 'boolean')
    invalid(`"approximate" in the vector comparison of ${where} must be true or false`)
  if (
    ef !== undefined &&
    !(Number.isInteger(ef) && (ef as number) >= 1 && (ef as number) <= MOST_EF)
  )
    invalid(`"ef" in the vector comparison of ${where} must be an integer from 1 to ${MOST_EF}`)
  if (approximate !== true) {
    if (ef !== undefined)
      invalid(`"ef" in the vector comparison of ${where} needs "approximate": true`)
    return undefined
  }
  return { ef: (ef as number | undefined) ?? DEFAULT_EF }
}

/**
 * `filter` with each search that asks for approximation given the index that answers it, or
 * told in its plan text why it scans instead (no package, an index being built).
 */
export function resolveApproximate(
  filter: BoundFilter,
  nearest:
    | ((dc: DataClassDef, attr: StorageAttributeDef, metric: VectorMetric) => NearestState)
    | undefined,
): BoundFilter {
  const walk = (f: BoundFilter): BoundFilter => {
    switch (f.kind) {
      case 'Comparison': {
        const v = f.value
        if (v.kind !== 'vector' || !v.approximate || f.operand.kind !== 'storage') return f
        const state: NearestState = nearest
          ? nearest(f.dataClass, f.operand.attr, v.metric)
          : { kind: 'none', why: 'no approximate index here' }
        const how =
          state.kind === 'ready'
            ? `approximate: ${state.index.description}, ef ${v.approximate.ef}`
            : state.kind === 'building'
              ? `exact: its approximate index is being built (${state.done} of ${state.of} rows)`
              : `exact: ${state.why}`
        const shown = `${v.shown.slice(0, -1)}, ${how})`
        const value: VectorCmpValue =
          state.kind === 'ready' ? { ...v, shown, index: state.index } : { ...v, shown }
        return { ...f, value }
      }
      case 'Join':
      case 'ReverseJoin':
      case 'Computed':
        return { ...f, inner: walk(f.inner) }
      case 'Logical':
        return { ...f, operands: f.operands.map(walk) }
      case 'Not':
        return { ...f, operand: walk(f.operand) }
      case 'Linked':
        return f
    }
  }
  return walk(filter)
}

/**
 * The rows an approximate index finds for a search: its `ef` nearest, those still live and
 * passing the threshold (scored again exactly), in row-id order as every leaf's rows are.
 */
export function approximateRows(c: BoundComparison, value: VectorCmpValue, table: Table): number[] {
  const ef = value.approximate!.ef
  const found = value.index!.search(value.query.toFloat32Array(), ef, ef)
  const test = vectorTest(c, value)
  const read = table.reader(c.operand.attr.name)
  return found.filter((r) => table.has(r) && test(read(r))).sort((a, b) => a - b)
}

/** Whether a comparison is a vector search. */
export const isVectorSearch = (
  c: BoundComparison,
): c is BoundComparison & { readonly value: VectorCmpValue } => c.value.kind === 'vector'

/**
 * The test of one stored value for a vector search. A stored vector of another size than the
 * query's is an error of the query (400), not a silent miss: 4D requires both of one size.
 */
export function vectorTest(
  c: BoundComparison,
  value: VectorCmpValue,
): (stored: unknown) => boolean {
  const { query, metric, threshold } = value
  const score = (v: unknown): number => {
    if (!(v instanceof Vector)) return NaN
    if (v.length !== query.length) wrongSize(c, query.length, v.length)
    return query.score(metric, v)
  }
  // NaN (no vector) fails every comparison.
  switch (c.op) {
    case 'lt':
      return (v) => score(v) < threshold
    case 'le':
      return (v) => score(v) <= threshold
    case 'gt':
      return (v) => score(v) > threshold
    default:
      return (v) => score(v) >= threshold
  }
}

/**
 * The vector searches a filter requires of every row (the top level and its ANDs), by attribute:
 * an order by similarity follows one of them (under OR or NOT there is no one vector to follow).
 */
function requiredSearches(
  filter: BoundFilter | null,
  out = new Map<StorageAttributeDef, Similarity>(),
) {
  if (!filter) return out
  if (
    filter.kind === 'Comparison' &&
    filter.value.kind === 'vector' &&
    filter.operand.kind === 'storage'
  ) {
    if (!out.has(filter.operand.attr)) {
      const { query, metric, scores } = filter.value
      scores.wanted = true
      out.set(filter.operand.attr, { query, metric, scores })
    }
  } else if (filter.kind === 'Logical' && filter.op === 'And')
    for (const o of filter.operands) requiredSearches(o, out)
  else if (filter.kind === 'Logical' && filter.op === 'Except' && filter.operands[0])
    requiredSearches(filter.operands[0], out)
  return out
}

/**
 * `keys` with each key on a vector attribute given the similarity of the filter's search on it
 * (21 R2: `$orderby="embedding desc"` after `$filter="embedding>=:1"`). A key on a vector
 * attribute with no such search is a WrongOrderBy: there is nothing to measure against.
 */
export function linkSimilarity(
  keys: readonly BoundOrderKey[],
  filter: BoundFilter | null,
): readonly BoundOrderKey[] {
  if (!keys.some(isVectorKey)) return keys
  const searches = requiredSearches(filter)
  return keys.map((k) => {
    if (!isVectorKey(k)) return k
    const similarity = searches.get((k.operand as { attr: StorageAttributeDef }).attr)
    if (!similarity)
      fail('WrongOrderBy', [
        k.text,
        'a vector attribute is ordered by its similarity to the vector of a filter on it ($filter="attribute>=:1")',
      ])
    return { ...k, similarity }
  })
}

const isVectorKey = (k: BoundOrderKey): boolean =>
  k.operand.kind === 'storage' && k.operand.attr.vector === true && k.relations.length === 0

/** Whether `v` is the bound value of a vector search. */
export const isVectorValue = (v: CmpValue): v is VectorCmpValue => v.kind === 'vector'
