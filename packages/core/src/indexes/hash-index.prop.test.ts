/**
 * Model-based test of the hash index alone: random inserts, updates, deletes, bulk fills, copies
 * and lent IN answers applied to an index that reads its keys from an array of stored values (as
 * it reads a table) and to a Map of folded keys. After every command each index, copies included
 * (they must not see the writes made after them, nor their source see theirs), answers as its Map
 * does; a lent answer lists, whenever it is read, the rows of when it was lent.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sortKey, type SortKey } from '../values/compare.js'
import { lazyKey } from '../values/lazy-fold.js'
import { settledRowIds } from '../sets/row-ids.js'
import { HashIndex } from './hash-index.js'

// Texts that fold alike, numbers that are equal (0 and -0) or hash apart (a fraction, NaN), and
// many small integers: clusters, growth and deletions within clusters.
const VALUES: unknown[] = [
  'Élodie',
  'elodie',
  'ELODIE',
  'Bob',
  'bob',
  '',
  'Straße',
  0,
  -0,
  NaN,
  2.5,
  true,
  false,
  null,
  undefined,
  ...Array.from({ length: 40 }, (_, i) => i + 1),
  ...Array.from({ length: 20 }, (_, i) => `C${i}`),
]

// The key as the index set makes it (lazy texts), and as the model keys it (folded).
const keyOf = (v: unknown): SortKey => (typeof v === 'string' ? lazyKey(v) : sortKey(v, true))
const modelKey = (v: unknown): SortKey => sortKey(v, true)

type Model = Map<SortKey, Set<number>>

function modelAdd(m: Model, v: unknown, row: number): void {
  const k = modelKey(v)
  let rows = m.get(k)
  if (!rows) m.set(k, (rows = new Set()))
  rows.add(row)
}

function modelRemove(m: Model, v: unknown, row: number): void {
  const k = modelKey(v)
  m.get(k)?.delete(row)
  if (m.get(k)?.size === 0) m.delete(k)
}

const cloneModel = (m: Model): Model => new Map([...m].map(([k, s]) => [k, new Set(s)]))

function expectSame(index: HashIndex, model: Model): void {
  expect(index.distinct).toBe(model.size)
  for (const v of VALUES) {
    const want = [...(model.get(modelKey(v)) ?? [])].sort((a, b) => a - b)
    // Asked with the folded key, as queries ask, and with the lazy key, as writes do.
    for (const key of [modelKey(v), keyOf(v)]) {
      expect([...index.get(key)].sort((a, b) => a - b)).toEqual(want)
      expect(index.rows(key).sort((a, b) => a - b)).toEqual(want)
      expect(index.count(key)).toBe(want.length)
      expect(index.only(key)).toBe(want.length === 0 ? -1 : want.length === 1 ? want[0] : -2)
    }
  }
  // IN's answer: the rows of several keys in one array (each key once, as an IN asks).
  const some = [...new Set(VALUES.slice(0, 12).map(modelKey))]
  expect(index.rowsOf(some).sort((a, b) => a - b)).toEqual(
    some.flatMap((k) => [...(model.get(k) ?? [])]).sort((a, b) => a - b),
  )
  const entries = [...index.entries()]
  expect(entries.length).toBe(model.size)
  for (const [k, rows] of entries)
    expect(rows.sort((a, b) => a - b)).toEqual([...model.get(k)!].sort((a, b) => a - b))
}

type Command =
  | { kind: 'insert'; value: number }
  | { kind: 'claim'; value: number }
  | { kind: 'insertMany'; value: number; count: number }
  | { kind: 'update'; pick: number; value: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'fill' }
  | { kind: 'capture' }
  | { kind: 'restore'; pick: number }
  | { kind: 'prepare'; extra: number; asks: number }
  | { kind: 'lend'; values: number[] }

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 6, arbitrary: fc.nat(VALUES.length - 1).map((value) => ({ kind: 'insert', value })) },
  // A unique claim (a data load's): added only when no row holds the key.
  { weight: 2, arbitrary: fc.nat(VALUES.length - 1).map((value) => ({ kind: 'claim', value })) },
  // Enough rows under one key for its group to cross GROUP_TYPED (64) into an Int32Array, and
  // deletes and updates to bring it back below.
  {
    weight: 1,
    arbitrary: fc
      .record({ value: fc.nat(4), count: fc.integer({ min: 20, max: 150 }) })
      .map((c) => ({ kind: 'insertMany', ...c })),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({ pick: fc.nat(), value: fc.nat(VALUES.length - 1) })
      .map((c) => ({ kind: 'update', ...c })),
  },
  { weight: 3, arbitrary: fc.nat().map((pick) => ({ kind: 'delete', pick })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fill' }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'capture' }) },
  { weight: 1, arbitrary: fc.nat().map((pick) => ({ kind: 'restore', pick })) },
  // Room for more keys, made a few slots at a time for `asks` questions to `more()`: left half
  // done, the move meets the next command (a write, a copy, a fill, another prepare).
  {
    weight: 2,
    arbitrary: fc
      .record({ extra: fc.nat(300), asks: fc.nat(6) })
      .map((c) => ({ kind: 'prepare', ...c })),
  },
  // An IN's answer lent (lendRowsOf): one key (its bucket itself) or several; the first values
  // are the ones insertMany piles rows under, whose groups cross GROUP_TYPED.
  {
    weight: 2,
    arbitrary: fc
      .array(fc.oneof(fc.nat(4), fc.nat(VALUES.length - 1)), { minLength: 1, maxLength: 4 })
      .map((values) => ({ kind: 'lend', values })),
  },
) as fc.Arbitrary<Command>

const DELETED = Symbol('deleted')

describe('HashIndex', () => {
  it('answers as a Map of folded keys, through writes, fills, captures, restores, growths in pieces and lent answers', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 20, maxLength: 80 }), (commands) => {
        // The stored values by row id, which the index reads its keys from (the table).
        const values: unknown[] = []
        let index = new HashIndex('x', true, (r) => keyOf(values[r]))
        let model: Model = new Map()
        // Captured states: a copy of the index, of the model and of the values. A state is
        // restored as a table restores its indexes: the values first, then a copy of its index,
        // and it can be restored again later (writes after a restore must not reach it).
        const states: { index: HashIndex; model: Model; values: unknown[] }[] = []
        // Lent answers and the rows they must list whenever they are read, whatever was written
        // after: read at the end of the run, except those read at once (made, then kept).
        const lent: { rows: ReturnType<HashIndex['lendRowsOf']>; want: number[] }[] = []
        const listed = (rows: ReturnType<HashIndex['lendRowsOf']>): number[] =>
          [...settledRowIds(rows)].sort((a, b) => a - b)
        for (const c of commands) {
          const rows = values.flatMap((v, row) => (v === DELETED ? [] : [row]))
          switch (c.kind) {
            case 'insert': {
              // The table holds the row before the index hears of it.
              const row = values.length
              values.push(VALUES[c.value])
              index.add(keyOf(values[row]), row)
              modelAdd(model, values[row], row)
              break
            }
            case 'claim': {
              const row = values.length
              const held = model.has(modelKey(VALUES[c.value]))
              values.push(held ? DELETED : VALUES[c.value])
              expect(index.addNew(keyOf(VALUES[c.value]), row)).toBe(!held)
              if (!held) modelAdd(model, values[row], row)
              break
            }
            case 'insertMany':
              for (let i = 0; i < c.count; i++) {
                const row = values.length
                values.push(VALUES[c.value])
                index.add(keyOf(values[row]), row)
                modelAdd(model, values[row], row)
              }
              break
            case 'update': {
              if (rows.length === 0) break
              const row = rows[c.pick % rows.length]!
              const before = values[row]
              values[row] = VALUES[c.value]
              index.remove(keyOf(before), row)
              index.add(keyOf(values[row]), row)
              modelRemove(model, before, row)
              modelAdd(model, values[row], row)
              break
            }
            case 'delete': {
              if (rows.length === 0) break
              const row = rows[c.pick % rows.length]!
              const before = values[row]
              values[row] = DELETED
              index.remove(keyOf(before), row)
              modelRemove(model, before, row)
              break
            }
            case 'fill':
              index.fill(
                rows.map((r) => keyOf(values[r])),
                rows,
              )
              break
            case 'capture':
              states.push({ index: index.copy(), model: cloneModel(model), values: values.slice() })
              break
            case 'prepare': {
              let asks = c.asks
              const done = index.prepare(index.distinct + c.extra, () => asks-- > 0, 4)
              if (done) expect(index.growing).toBe(false)
              break
            }
            case 'lend': {
              const keys = [...new Set(c.values.map((v) => modelKey(VALUES[v])))]
              const rows = index.lendRowsOf(keys)
              const want = keys.flatMap((k) => [...(model.get(k) ?? [])]).sort((a, b) => a - b)
              expect(rows.length).toBe(want.length)
              if (lent.length % 2 === 1) expect(listed(rows)).toEqual(want)
              lent.push({ rows, want })
              break
            }
            case 'restore': {
              if (states.length === 0) break
              const state = states[c.pick % states.length]!
              values.length = 0
              values.push(...state.values)
              index = state.index.copy()
              model = cloneModel(state.model)
              break
            }
          }
          expectSame(index, model)
        }
        for (const { rows, want } of lent) expect(listed(rows)).toEqual(want)
      }),
      { numRuns: 40 },
    )
  })
})
