/**
 * @module The algebra of entity sets, on row ids. An entity set is an ordered list of distinct row
 * ids; every operation keeps the order of its first operand (then of the second, for OR), so a set
 * made from an ordered read stays in that order. Row ids are never reused, so a member deleted since
 * the set was made stays a member (an undefined entity, `{"__STAMP": 0}`) until `clean` drops it.
 * A set another process made may name such members by negative row ids (no slot of the table).
 *
 * Membership tests use a Uint8Array over row ids when the other operand is large (one byte per row
 * of the table, no hashing) and a Set otherwise.
 */
import { copyRowIds, type RowIds } from './row-ids.js'

/** Members between two points where an operation may stop (work in slices, query/slices.ts). */
const STEP = 4096

/**
 * The work of each operation: a generator yielding every STEP members, for a slice scope to stop
 * between (entity sets never change, so what it found before a stop still holds after it).
 */
export type SetWork<T> = Generator<void, T, void>

/** Runs set work to its end in one piece. */
function whole<T>(work: SetWork<T>): T {
  for (;;) {
    const r = work.next()
    if (r.done) return r.value
  }
}

/** How the other operand is looked up: a bitmap for large operands, a Set for small ones. */
function* membership(rows: RowIds): SetWork<(rowId: number) => boolean> {
  let max = 0
  let min = 0
  if (rows.length >= 64)
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!
      if (r > max) max = r
      else if (r < min) min = r
      if ((i + 1) % STEP === 0) yield
    }
  // A set adopted from another process names its members deleted here by negative row ids
  // (never a slot of the table): a bitmap cannot hold them.
  if (rows.length < 64 || min < 0) {
    const set = new Set(rows)
    return (r) => set.has(r)
  }
  const mark = new Uint8Array(max + 1)
  for (let i = 0; i < rows.length; i++) {
    mark[rows[i]!] = 1
    if ((i + 1) % STEP === 0) yield
  }
  return (r) => r <= max && mark[r] === 1
}

/** The members of `a` that are also in `b`, in `a`'s order. */
export const and = (a: RowIds, b: RowIds): number[] => whole(andWork(a, b))

export function* andWork(a: RowIds, b: RowIds): SetWork<number[]> {
  if (a.length === 0 || b.length === 0) return []
  const inB = yield* membership(b)
  const out: number[] = []
  for (let i = 0; i < a.length; i++) {
    if (inB(a[i]!)) out.push(a[i]!)
    if ((i + 1) % STEP === 0) yield
  }
  return out
}

/** The members of `a`, then those of `b` not in `a`, each in its order. */
export const or = (a: RowIds, b: RowIds): number[] => whole(orWork(a, b))

export function* orWork(a: RowIds, b: RowIds): SetWork<number[]> {
  if (b.length === 0) return copyRowIds(a)
  const inA = yield* membership(a)
  const out = copyRowIds(a)
  for (let i = 0; i < b.length; i++) {
    if (!inA(b[i]!)) out.push(b[i]!)
    if ((i + 1) % STEP === 0) yield
  }
  return out
}

/** The members of `a` that are not in `b`, in `a`'s order. */
export const except = (a: RowIds, b: RowIds): number[] => whole(exceptWork(a, b))

export function* exceptWork(a: RowIds, b: RowIds): SetWork<number[]> {
  if (b.length === 0) return copyRowIds(a)
  const inB = yield* membership(b)
  const out: number[] = []
  for (let i = 0; i < a.length; i++) {
    if (!inB(a[i]!)) out.push(a[i]!)
    if ((i + 1) % STEP === 0) yield
  }
  return out
}

/** Whether `a` and `b` have a member in common (4D's INTERSECT). */
export const intersects = (a: RowIds, b: RowIds): boolean => whole(intersectsWork(a, b))

export function* intersectsWork(a: RowIds, b: RowIds): SetWork<boolean> {
  if (a.length === 0 || b.length === 0) return false
  const [small, large] = a.length <= b.length ? [a, b] : [b, a]
  const inSmall = yield* membership(small)
  for (let i = 0; i < large.length; i++) {
    if (inSmall(large[i]!)) return true
    if ((i + 1) % STEP === 0) yield
  }
  return false
}

/** The logical operators of `$logicOperator`, by their upper-case name. */
export const LOGIC_OPERATORS = ['AND', 'OR', 'EXCEPT', 'INTERSECT'] as const
export type LogicOperator = (typeof LOGIC_OPERATORS)[number]
