import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareKeys, type SortKey } from '../values/compare.js'
import { fold } from '../values/fold.js'
import { foldLazy, lazyKey } from '../values/lazy-fold.js'
import { TextKeys, type BuildKeys } from './build-keys.js'
import { CHUNK, RUN, SlicedSort, TEXT_RUN } from './sliced-sort.js'
import { BLOCK_MAX, SortedIndex } from './sorted-index.js'

/**
 * The two kinds of index: one that does not fold (an object attribute's), given keys as they are,
 * and a text attribute's, which folds: given lazy keys (lazy-fold.ts) as the index set gives
 * them, it must order and answer as if given the folded texts, which the reference is given.
 */
const KINDS = [
  { folds: false, toIndex: (k: SortKey): SortKey => k, toRef: (k: SortKey): SortKey => k },
  {
    folds: true,
    toIndex: (k: SortKey): SortKey => (typeof k === 'string' ? lazyKey(k) : k),
    toRef: (k: SortKey): SortKey => (typeof k === 'string' ? fold(k) : k),
  },
] as const

/** A key as an index holds it, as the reference holds it (texts of a folding index folded). */
const held = (k: SortKey, folds: boolean): SortKey =>
  folds && typeof k === 'string' ? foldLazy(k) : k

/** The reference: a stable comparison sort of (key, row) pairs by compareKeys. */
function reference(keys: SortKey[], rows: number[]): [SortKey[], number[]] {
  const order = keys.map((_, i) => i).sort((a, b) => compareKeys(keys[a]!, keys[b]!) || a - b)
  return [order.map((i) => keys[i]!), order.map((i) => rows[i]!)]
}

// Columns as they come: numbers, text with few or many distinct values (each sort path), nulls,
// and mixed kinds; sizes on both sides of the radix sort's threshold.
const column = (value: fc.Arbitrary<SortKey>) =>
  fc.oneof(
    fc.array(value, { maxLength: 200 }),
    fc.array(value, { minLength: 2048, maxLength: 4000 }),
  )
// Texts that fold alike (case, accents) with ties to keep in row order when folded.
const fewTexts = fc.constantFrom(
  '2024-01-02',
  '2024-01-10',
  'b',
  'a',
  '',
  'é',
  'zz',
  'B',
  'É',
  'Zz',
  'ZZ',
)
const anyText = fc.string({ maxLength: 14 })
const maybeNull = <T extends SortKey>(a: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 9, arbitrary: a }, { weight: 1, arbitrary: fc.constant(null) })

describe.each(KINDS)('SortedIndex.resetFrom (folds: $folds)', ({ folds, toIndex, toRef }) => {
  it('orders every kind of column as a stable sort by compareKeys, ties in row order', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          column(maybeNull(fc.double({ noNaN: true }))),
          column(maybeNull(fc.integer({ min: 0, max: 20 }))),
          column(maybeNull(fewTexts)),
          column(maybeNull(anyText)),
          column(maybeNull(fc.oneof(fc.boolean(), fc.integer(), anyText))),
        ),
        // Blocks of a few entries up to the default: their edges fall anywhere.
        fc.oneof(fc.integer({ min: 4, max: 64 }), fc.constant(BLOCK_MAX)),
        (keys, blockMax) => {
          const rows = keys.map((_, i) => i * 3 + 1)
          const ix = new SortedIndex('x', folds, undefined, blockMax)
          ix.resetFrom(keys.map(toIndex), Int32Array.from(rows))
          const [held_, r] = ix.content()
          const k = held_.map((x) => held(x, folds))
          const [rk, rr] = reference(keys.map(toRef), rows)
          expect([...r]).toEqual(rr)
          expect(k.map((x) => (x === 0 ? 0 : x))).toEqual(rk.map((x) => (x === 0 ? 0 : x)))
        },
      ),
      { numRuns: 80 },
    )
  })
})

/** `keys` as a build keeps them when it can: numbers in a Float64Array, a folding index's texts. */
function typedKeys(keys: readonly SortKey[], folds: boolean): BuildKeys | undefined {
  if (keys.every((k) => k === null || typeof k === 'number'))
    return Float64Array.from(keys, (k) => (k === null ? NaN : (k as number)))
  if (!folds || !keys.every((k) => k === null || typeof k === 'string')) return undefined
  const texts = new TextKeys(1)
  for (const k of keys) texts.add(k as string | null)
  return texts
}

describe.each(KINDS)('SlicedSort, adopted (folds: $folds)', ({ folds, toIndex }) => {
  it('gives what resetFrom gives, whatever the runs, chunks and slices', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(maybeNull(fc.double({ noNaN: true })), { maxLength: 300 }),
          fc.array(maybeNull(fc.integer({ min: -5, max: 20 })), { maxLength: 300 }),
          fc.array(maybeNull(fewTexts), { maxLength: 300 }),
          fc.array(maybeNull(anyText), { maxLength: 300 }),
          fc.array(maybeNull(fc.oneof(fc.boolean(), fc.integer(), anyText)), { maxLength: 300 }),
        ),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 5 }),
        (given, run, chunk, slice) => {
          const keys = given.map(toIndex)
          const rows = keys.map((_, i) => i * 3 + 1)
          const whole = new SortedIndex('x', folds)
          whole.resetFrom(keys, Int32Array.from(rows))
          // The sort owns what it is given: copies.
          const sort = new SlicedSort(keys.slice(), Int32Array.from(rows), folds, run, chunk)
          let slices = 0
          for (;;) {
            let left = slice
            slices++
            if (sort.step(() => --left > 0)) break
          }
          const sliced = new SortedIndex('x', folds)
          sliced.adopt(sort.result())
          expect(sliced.size).toBe(whole.size)
          expect(sliced.content()).toEqual(whole.content())
          // In slices when there is more than a run to sort.
          if (keys.length > run && slice === 1) expect(slices).toBeGreaterThan(1)
          // The same keys outside the heap, as a build reads them (build-keys.ts): numbers in a
          // Float64Array (NaN for null), texts of a folding index in place, read back by row.
          const typed = typedKeys(keys, folds)
          if (typed === undefined) return
          const typedSort = new SlicedSort(typed, Int32Array.from(rows), folds, run, chunk)
          for (;;) {
            let left = slice
            if (typedSort.step(() => --left > 0)) break
          }
          const byRow = (rowId: number): SortKey => keys[(rowId - 1) / 3]!
          const adopted = new SortedIndex('x', folds, typed instanceof TextKeys ? byRow : undefined)
          adopted.adopt(typedSort.result())
          expect(adopted.size).toBe(whole.size)
          expect(adopted.content()).toEqual(whole.content())
        },
      ),
      { numRuns: 150 },
    )
  })
})

describe('SlicedSort, default runs', () => {
  // Accented words, some sharing long prefixes (ties of the radix key), some null.
  const syllables = ['ça', 'Çé', 'bo', 'BÔ', 'lü', 'ma', 'ñe', 'tri', 'gus', 'à']
  const word = (i: number): string | null =>
    i % 97 === 0
      ? null
      : `${syllables[i % 10]}${syllables[(i >> 3) % 10]}${syllables[(i * 7) % 10]} ${i % 1000}`

  it('sorts texts in runs of TEXT_RUN and numbers in runs of RUN, one run a step at most, like resetFrom', () => {
    const cases = [
      { n: 3 * TEXT_RUN + 7, key: (i: number) => word(i), run: TEXT_RUN },
      { n: 2 * RUN + 7, key: (i: number) => (i % 89 === 0 ? null : (i * 7919) % 5003), run: RUN },
    ]
    for (const { n, key, run } of cases) {
      const keys = Array.from({ length: n }, (_, i) => key(i))
      const rows = Int32Array.from(keys, (_, i) => i)
      const typed = typedKeys(
        keys.map((k) => (typeof k === 'string' ? lazyKey(k) : k)),
        true,
      )!
      const sort = new SlicedSort(typed, rows.slice(), true)
      let steps = 0
      while (!sort.step(() => false)) steps++
      // The copy (a step a CHUNK), then one step per run, then the merges.
      const runs = Math.ceil((n - keys.filter((k) => k === null).length) / run)
      expect(steps).toBeGreaterThanOrEqual(Math.ceil(n / CHUNK) + runs)
      const whole = new SortedIndex('x', true)
      whole.resetFrom(
        keys.map((k) => (typeof k === 'string' ? lazyKey(k) : k)),
        rows.slice(),
      )
      const byRow = (rowId: number): SortKey => {
        const k = keys[rowId]!
        return typeof k === 'string' ? lazyKey(k) : k
      }
      const adopted = new SortedIndex('x', true, typed instanceof TextKeys ? byRow : undefined)
      adopted.adopt(sort.result())
      expect(adopted.content()).toEqual(whole.content())
    }
  })
})

describe.each(KINDS)('SortedIndex.move (folds: $folds)', ({ folds, toIndex, toRef }) => {
  // Keys of one column: numbers only (few distinct, so duplicates, or fractional), with nulls, or
  // of mixed kinds, where a text or boolean key turns a numeric index generic mid-way.
  const columns = fc.constantFrom<fc.Arbitrary<SortKey>>(
    maybeNull(fc.integer({ min: 0, max: 6 })),
    // 32-bit integers kept as such, until a key that is not one (a fraction, past 32 bits, -0)
    // turns them into doubles mid-way.
    maybeNull(
      fc.oneof(
        { weight: 9, arbitrary: fc.integer({ min: -3, max: 3 }) },
        { weight: 1, arbitrary: fc.constantFrom(2.5, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, -0) },
      ),
    ),
    maybeNull(fc.double({ noNaN: true, min: -1e3, max: 1e3 })),
    maybeNull(
      fc.oneof(
        { weight: 9, arbitrary: fc.integer({ min: 0, max: 4 }) },
        { weight: 1, arbitrary: fewTexts },
      ),
    ),
    maybeNull(fc.oneof(fc.boolean(), fc.integer({ min: -3, max: 3 }), fewTexts)),
  )

  // `reading` reads its keys from `current` (the rows), as a text index does from its table: the
  // rows change before the index is told, as a write changes them (see sorted-index.ts).
  // Blocks of 4 to 9 entries: the writes split them, and deletes empty and merge them.
  it('gives what remove then add give, and every reader agrees with a sorted reference', () => {
    fc.assert(
      fc.property(
        columns.chain((key) =>
          fc.record({
            initial: fc.array(key, { maxLength: 60 }),
            bulk: fc.boolean(),
            blockMax: fc.integer({ min: 4, max: 9 }),
            // Moves of existing rows (index into the rows), some of a row that is not there, and
            // deletes.
            moves: fc.array(
              fc.record({
                pick: fc.nat({ max: 999 }),
                key,
                missing: fc.nat({ max: 9 }).map((x) => x === 0),
                drop: fc.nat({ max: 2 }).map((x) => x === 0),
              }),
              { maxLength: 40 },
            ),
            // Keys to read: equal, prefix, and a range [lower, upper] (one side open or none).
            probes: fc.array(
              fc.record({ key, lo: fc.boolean(), hi: fc.boolean(), open: fc.nat({ max: 2 }) }),
              { maxLength: 6 },
            ),
          }),
        ),
        ({ initial, bulk, blockMax, moves, probes }) => {
          const moved = new SortedIndex('x', folds, undefined, blockMax)
          const pair = new SortedIndex('x', folds, undefined, blockMax)
          // Row id → key as given (the reference folds it, the index gets its lazy key).
          const model = new Map<number, SortKey>()
          const current = new Map<number, SortKey>()
          const reading = new SortedIndex('x', folds, (r) => toIndex(current.get(r)!), blockMax)
          initial.forEach((k, i) => model.set(i * 2, k))
          if (bulk) {
            for (const [r, k] of model) current.set(r, k)
            moved.resetFrom(initial.map(toIndex), Int32Array.from(model.keys()))
            pair.resetFrom(initial.map(toIndex), Int32Array.from(model.keys()))
            reading.resetFrom(initial.map(toIndex), Int32Array.from(model.keys()))
          } else
            for (const [r, k] of model) {
              moved.add(toIndex(k), r)
              pair.add(toIndex(k), r)
              current.set(r, k)
              reading.add(toIndex(k), r)
            }
          for (const { pick, key, missing, drop } of moves) {
            const rows = [...model.keys()]
            const rowId = missing || rows.length === 0 ? 1 + 2 * pick : rows[pick % rows.length]!
            if (drop) {
              // A delete: of a row not there, it changes nothing.
              const old = model.has(rowId) ? model.get(rowId)! : key
              for (const ix of [moved, pair, reading]) ix.remove(toIndex(old), rowId)
              model.delete(rowId)
              current.delete(rowId)
              continue
            }
            // A row not there: the old key is any key (move then adds).
            const old = model.has(rowId) ? model.get(rowId)! : key
            moved.move(toIndex(old), toIndex(key), rowId)
            pair.remove(toIndex(old), rowId)
            pair.add(toIndex(key), rowId)
            model.set(rowId, key)
            current.set(rowId, key)
            reading.move(toIndex(old), toIndex(key), rowId)
          }
          // Ties in row-id order: the reference gets the rows in that order.
          const entries = [...model].sort(([a], [b]) => a - b)
          const [rk, rr] = reference(
            entries.map(([, k]) => toRef(k)),
            entries.map(([r]) => r),
          )
          const [mk, r] = moved.content()
          const [ppk, pr] = pair.content()
          const k = mk.map((x) => held(x, folds))
          const pk = ppk.map((x) => held(x, folds))
          expect([...r]).toEqual(rr)
          expect([...pr]).toEqual(rr)
          expect(k).toEqual(rk)
          expect(pk).toEqual(rk)
          expect(moved.size).toBe(rr.length)
          rk.forEach((key, p) => expect(moved.keyAt(p)).toEqual(key))
          const [rdk, rdr] = reading.content()
          expect([...rdr]).toEqual(rr)
          expect(rdk.map((x) => held(x, folds))).toEqual(rk)
          // Once a text arrived, it holds no keys.
          if (rk.some((x) => typeof x === 'string')) expect(reading.reading).toBe(true)
          // Readers: equality and ranges as row sets of the reference.
          const rowsWhere = (keep: (k: SortKey) => boolean) =>
            rr.filter((_, p) => keep(rk[p]!)).sort((a, b) => a - b)
          // Probes as queries give them: texts folded when the index folds.
          for (const [ix, { key: probe, lo, hi, open }] of [moved, reading].flatMap((ix) =>
            [
              ...probes.map((p) => ({ ...p, key: toRef(p.key) })),
              { key: null, lo: 0, hi: 0, open: 0 },
            ].map((p) => [ix, p] as const),
          )) {
            const sortedRows = ([s, e]: [number, number]) => ix.rows(s, e).sort((a, b) => a - b)
            expect(sortedRows(ix.equal(probe))).toEqual(
              rowsWhere((x) => compareKeys(x, probe) === 0),
            )
            if (probe === null) continue
            const lower = open === 1 ? undefined : { key: probe, inclusive: !!lo }
            const upper = open === 2 ? undefined : { key: probe, inclusive: !!hi }
            const inRange = (x: SortKey) =>
              typeof x === typeof probe &&
              (!lower || compareKeys(x, lower.key) > (lower.inclusive ? -1 : 0)) &&
              (!upper || compareKeys(x, upper.key) < (upper.inclusive ? 1 : 0))
            expect(sortedRows(ix.range(lower, upper))).toEqual(rowsWhere(inRange))
            if (typeof probe === 'string')
              expect(sortedRows(ix.prefix(probe.slice(0, 1)))).toEqual(
                rowsWhere((x) => typeof x === 'string' && x.startsWith(probe.slice(0, 1))),
              )
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('SortedIndex.range', () => {
  // The planner takes the overlap of a pair's one-sided ranges as their two-sided range
  // (query/planner.ts, overlap): it holds because a kind's keys are contiguous in the index.
  it('of two bounds holds the positions their one-sided ranges share', () => {
    const key = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom('a', 'b', 'c', 'é', ''))
    fc.assert(
      fc.property(
        column(maybeNull(fc.oneof(key, fc.boolean()))),
        key,
        key,
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 4, max: 16 }),
        (keys, a, b, aIn, bIn, blockMax) => {
          fc.pre(typeof a === typeof b)
          const ix = new SortedIndex('x', false, undefined, blockMax)
          ix.resetFrom(keys, Int32Array.from(keys.map((_, i) => i)))
          const lower = { key: a, inclusive: aIn }
          const upper = { key: b, inclusive: bIn }
          const [s1, e1] = ix.range(lower)
          const [s2, e2] = ix.range(undefined, upper)
          const [s, e] = ix.range(lower, upper)
          const start = Math.max(s1, s2)
          const end = Math.max(start, Math.min(e1, e2))
          expect(end - start).toBe(e - s)
          if (e > s) expect([start, end]).toEqual([s, e])
        },
      ),
      { numRuns: 300 },
    )
  })
})
