/**
 * Orderings: the lazy top-k and the index walk must give exactly the full sort, for any window and
 * for page-by-page reading; ties keep creation order (also descending); rows deleted since a
 * selection was made go last and never break an ordering.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ModelJson } from '../schema/model-json.js'
import { createDatastore } from '../orda/objects/datastore.js'
import type { EntitySelection } from '../orda/objects/entity-selection.js'

const model = (indexed: boolean): ModelJson => ({
  dataClasses: [
    {
      name: 'Group',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
      ],
    },
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string', indexed, indexKind: 'sorted' },
        { name: 'rank', type: 'long', indexed },
        { name: 'price', type: 'number', indexed, indexKind: 'hash' },
        { name: 'day', type: 'date', indexed },
        { name: 'group', kind: 'relatedEntity', path: 'Group' },
      ],
    },
  ],
})

type Row = { ID: number; name: string | null; rank: number | null; price: number | null }
type FullRow = Row & { day: string | null; group: number | null }

// A fixed pseudo-random data set: many ties, nulls, and keys not in creation order.
function rows(n: number): FullRow[] {
  let seed = 12345
  const next = (m: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % m
  }
  const names = ['Élodie', 'elodie', 'Bob', 'bob', 'alice', 'Zoë', 'zoe', 'Ånne', null]
  const keys = Array.from({ length: n }, (_, i) => i + 1)
  for (let i = n - 1; i > 0; i--) {
    const j = next(i + 1)
    ;[keys[i], keys[j]] = [keys[j]!, keys[i]!]
  }
  return keys.map((ID) => ({
    ID,
    name: names[next(names.length)]!,
    rank: next(7) === 0 ? null : next(10),
    price: next(5) === 0 ? null : next(40) / 4,
    day: next(4) === 0 ? null : `2024-0${1 + next(3)}-1${next(3)}`,
    group: next(3) === 0 ? null : 1 + next(3),
  }))
}

const N = 300
const DATA = {
  Group: [
    { ID: 1, name: 'beta' },
    { ID: 2, name: 'Alpha' },
    { ID: 3, name: null },
  ],
  Item: rows(N),
}
const GROUP_NAMES = new Map(DATA.Group.map((g) => [g.ID, g.name]))

const fresh = (indexed: boolean) => createDatastore(model(indexed), { data: DATA })
const indexedDs = fresh(true)
const plainDs = fresh(false)

// ---- The expected order, computed the plain way ----

const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
const valueOf = (row: FullRow, path: string): string | number | null => {
  if (path === 'group.name') return row.group === null ? null : (GROUP_NAMES.get(row.group) ?? null)
  const v = row[path as keyof FullRow]
  return v ?? null
}
const cmpValues = (a: string | number | null, b: string | number | null): number => {
  if (a === null || b === null) return a === null ? (b === null ? 0 : -1) : 1
  if (typeof a === 'string') {
    const [x, y] = [fold(a), fold(b as string)]
    return x < y ? -1 : x > y ? 1 : 0
  }
  return a - (b as number)
}

/** The keys of `subset` ordered by `orderBy` (`a desc, b`): nulls first ascending, ties by creation. */
function sortedKeys(orderBy: string, subset: readonly FullRow[] = DATA.Item): number[] {
  const keys = orderBy.split(',').map((part) => {
    const [path, dir] = part.trim().split(/\s+/)
    return { path: path!, sign: dir === 'desc' ? -1 : 1 }
  })
  const at = new Map(DATA.Item.map((r, i) => [r.ID, i]))
  return [...subset]
    .sort((x, y) => {
      for (const k of keys) {
        const c = cmpValues(valueOf(x, k.path), valueOf(y, k.path))
        if (c !== 0) return c * k.sign
      }
      return at.get(x.ID)! - at.get(y.ID)!
    })
    .map((r) => r.ID)
}

const keysOf = (s: EntitySelection): (number | null)[] =>
  s.members().map((e) => (e ? (e.getKey() as number) : null))

const ORDERS = [
  'rank',
  'rank desc',
  'name',
  'name desc',
  'price desc',
  'day',
  'ID desc',
  'name desc, rank',
  'rank, price desc',
  'group.name, rank desc',
  'group desc, name',
]

describe('top-k against the full sort', () => {
  it.each(ORDERS)('gives the full sort for every window: %s', (orderBy) => {
    const want = sortedKeys(orderBy)
    const windows: [number, number][] = [
      [0, 1],
      [0, 5],
      [3, 7],
      [0, 74], // just under a quarter of the rows: the heap
      [0, 75], // a quarter: one full sort
      [70, 10],
      [149, 2],
      [250, 100],
      [N - 1, 1],
      [N, 5],
      [N + 10, 5],
      [0, N],
      [0, Infinity],
    ]
    for (const ds of [indexedDs, plainDs]) {
      for (const [skip, top] of windows) {
        // A fresh selection each time: nothing ordered yet.
        const selection = ds.dataClass('Item').query(`order by ${orderBy}`)
        expect(keysOf(selection.window(skip, top)), `${orderBy} [${skip}, +${top}]`).toEqual(
          want.slice(skip, skip + top),
        )
      }
    }
  })

  it('gives the full sort for random windows and orders (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ORDERS),
        fc.boolean(),
        fc.nat({ max: N + 5 }),
        fc.integer({ min: 1, max: N + 5 }),
        fc.constantFrom('ID > 0', 'rank >= 4', "name = 'bob'", 'price < 3 or rank = null'),
        (orderBy, indexed, skip, top, filter) => {
          const ds = indexed ? indexedDs : plainDs
          const subset = keysOf(ds.dataClass('Item').query(filter))
          const rowsOf = DATA.Item.filter((r) => subset.includes(r.ID))
          const selection = ds.dataClass('Item').query(`${filter} order by ${orderBy}`)
          expect(keysOf(selection.window(skip, top))).toEqual(
            sortedKeys(orderBy, rowsOf).slice(skip, skip + top),
          )
        },
      ),
      { numRuns: 100 },
    )
  })

  it('reads page by page, and entity by entity, in the full order', () => {
    for (const ds of [indexedDs, plainDs]) {
      for (const orderBy of ['name desc', 'rank, price desc']) {
        const want = sortedKeys(orderBy)
        const selection = ds.dataClass('Item').query(`order by ${orderBy}`)
        const pages: (number | null)[] = []
        for (let skip = 0; ; skip += 17) {
          const page = keysOf(selection.window(skip, 17))
          if (page.length === 0) break
          pages.push(...page)
        }
        expect(pages).toEqual(want)
        const other = ds.dataClass('Item').query(`order by ${orderBy}`)
        const oneByOne = Array.from({ length: other.length }, (_, i) => other.at(i)?.getKey())
        expect(oneByOne).toEqual(want)
        expect(other.at(N)).toBeUndefined()
      }
    }
  })
})

describe('ties and index walks', () => {
  const small = (indexed: boolean) =>
    createDatastore(model(indexed), {
      data: {
        Item: [
          { ID: 5, rank: 2, name: 'b' },
          { ID: 3, rank: 2, name: 'B' },
          { ID: 9, rank: 1, name: 'a' },
          { ID: 1, rank: 2, name: 'b' },
          { ID: 7, rank: null, name: null },
          { ID: 2, rank: 1, name: 'A' },
        ],
      },
    })

  it('keeps creation order among equal values, ascending and descending', () => {
    for (const ds of [small(true), small(false)]) {
      const item = ds.dataClass('Item')
      expect(keysOf(item.query('order by rank'))).toEqual([7, 9, 2, 5, 3, 1])
      expect(keysOf(item.query('order by rank desc'))).toEqual([5, 3, 1, 9, 2, 7])
      // Text ties are case- and diacritic-insensitive.
      expect(keysOf(item.query('order by name desc'))).toEqual([5, 3, 1, 9, 2, 7])
      expect(keysOf(item.query('ID > 0 order by rank desc').window(1, 2))).toEqual([3, 1])
    }
  })

  it('walks a sorted index for one indexed key, and gives what the sort gives', () => {
    for (const orderBy of ['rank', 'rank desc', 'name', 'name desc', 'day desc']) {
      const walk = indexedDs.dataClass('Item').run(`rank > 3 order by ${orderBy}`)
      const sort = plainDs.dataClass('Item').run(`rank > 3 order by ${orderBy}`)
      expect(walk.explain()).toContain(`USING SORTED INDEX (no sort)`)
      expect(sort.explain()).toContain(`(top-k on demand)`)
      expect(keysOf(walk.selection)).toEqual(keysOf(sort.selection))
    }
    // A hash index cannot order; two keys are sorted even with a sorted index.
    expect(indexedDs.dataClass('Item').run('order by price').explain()).toContain('top-k')
    expect(indexedDs.dataClass('Item').run('order by rank, name').explain()).toContain('top-k')
  })
})

describe('deleted rows', () => {
  it('go last in every ordering without breaking it; the selection keeps its length', () => {
    for (const indexed of [true, false]) {
      const ds = fresh(indexed)
      const item = ds.dataClass('Item')
      const table = item.table
      const before = item.query('rank >= 5')
      const all = item.all()
      const gone = DATA.Item.filter((r) => r.ID % 7 === 0)
      ds.commit(gone.map((r) => ({ op: 'delete', table, before: table.recordByKey(r.ID)! })))
      const live = DATA.Item.filter((r) => r.ID % 7 !== 0)
      const goneIn = (s: EntitySelection) => [...s.unorderedRowIds].filter((r) => !table.record(r))
      for (const orderBy of [...ORDERS, 'ID']) {
        for (const selection of [before, all]) {
          const liveIn = live.filter((r) => (selection === all ? true : (r.rank ?? -1) >= 5))
          const want = [...sortedKeys(orderBy, liveIn), ...goneIn(selection).map(() => null)]
          const ordered = selection.orderBy(orderBy)
          expect(ordered.length).toBe(selection.length)
          expect(keysOf(ordered.window(0, 10)), orderBy).toEqual(want.slice(0, 10))
          expect(keysOf(ordered), orderBy).toEqual(want)
        }
      }
      // Primary-key order (the default) too.
      expect(keysOf(before)).toEqual([
        ...live
          .filter((r) => (r.rank ?? -1) >= 5)
          .map((r) => r.ID)
          .sort((a, b) => a - b),
        ...goneIn(before).map(() => null),
      ])
    }
  })

  it('go last when a few rows of a big table are put in key order (their keys read once)', () => {
    const ds = createDatastore({
      dataClasses: [
        {
          name: 'Code',
          attributes: [
            { name: 'code', type: 'string' },
            { name: 'rank', type: 'long', indexed: true },
          ],
          key: [{ name: 'code' }],
        },
      ],
    })
    // Keys not in creation order; rank 1 picks 5 rows of 100: few enough to be sorted by key.
    const codes = Array.from(
      { length: 100 },
      (_, i) => `C${String((i * 37) % 100).padStart(3, '0')}`,
    )
    ds.loadData({ Code: codes.map((code, i) => ({ code, rank: i % 20 })) })
    const dc = ds.dataClass('Code')
    const picked = dc.query('rank = 1')
    const table = dc.table
    const gone = ['C037', 'C077'].filter((k) => picked.unorderedRowIds.includes(table.rowIdOf(k)!))
    ds.commit(gone.map((k) => ({ op: 'delete', table, before: table.recordByKey(k)! })))
    const live = codes.filter((c, i) => i % 20 === 1 && !gone.includes(c)).sort()
    expect(keysOf(picked)).toEqual([...live, ...gone.map(() => null)])
  })

  it('do not let rows inserted later into an older selection', () => {
    for (const indexed of [true, false]) {
      const ds = fresh(indexed)
      const item = ds.dataClass('Item')
      const table = item.table
      const selection = item.all()
      // One out, one in: the table has as many rows as the selection, but not the same ones.
      ds.commit([{ op: 'delete', table, before: table.recordByKey(1)! }])
      ds.loadData({ Item: [{ ID: 1000, name: 'new', rank: 0, price: 0 }] })
      expect(item.length).toBe(selection.length)
      for (const orderBy of ['ID', 'rank', 'name desc', 'price', 'rank, name']) {
        const keys = keysOf(selection.orderBy(orderBy))
        expect(keys, orderBy).not.toContain(1000)
        expect(
          keys.filter((k) => k === null),
          orderBy,
        ).toHaveLength(1)
        expect(keys[keys.length - 1], orderBy).toBeNull()
      }
    }
  })
})

describe('EntitySelection.orderBy', () => {
  it('orders an existing selection as `order by` in the query would', () => {
    for (const ds of [indexedDs, plainDs]) {
      const item = ds.dataClass('Item')
      for (const orderBy of ['name desc, rank', 'rank', 'group.name']) {
        const later = item.query('rank > 2').orderBy(orderBy)
        const inQuery = item.query(`rank > 2 order by ${orderBy}`)
        expect(keysOf(later)).toEqual(keysOf(inQuery))
        expect(keysOf(later)).toEqual(
          sortedKeys(
            orderBy,
            DATA.Item.filter((r) => (r.rank ?? -1) > 2),
          ),
        )
      }
      // A new order replaces the previous one; a slice can be ordered again.
      const twice = item.query('order by rank desc').orderBy('price')
      expect(keysOf(twice)).toEqual(sortedKeys('price'))
      const page = item.query('order by rank').window(10, 20)
      expect(keysOf(page.orderBy('ID desc'))).toEqual([...keysOf(page)].sort((a, b) => b! - a!))
    }
  })

  it("appends run()'s orderBy option after the query's own order by", () => {
    const run = plainDs.dataClass('Item').run('rank > 0 order by rank', { orderBy: 'name desc' })
    expect(keysOf(run.selection)).toEqual(
      sortedKeys(
        'rank, name desc',
        DATA.Item.filter((r) => (r.rank ?? -1) > 0),
      ),
    )
  })

  it('refuses an order it cannot apply with 1810', () => {
    const all = plainDs.dataClass('Item').all()
    for (const bad of ['', 'nope', 'name sideways', 'group.nope']) {
      expect(() => all.orderBy(bad), bad).toThrow(expect.objectContaining({ errCode: 1810 }))
    }
  })
})

describe('a range read from a sorted index, in its default order', () => {
  // Keys in creation order (the key order is the row order): the rows come in key order of the
  // index, few are sorted by row id, many found by a walk of the table; deleted rows last.
  it('comes by row id, few rows or many, deleted ones last', () => {
    fc.assert(
      fc.property(
        // Tables of 50 to 400 rows, ranges of any width: a few rows (sorted) and many (walked).
        fc.array(fc.integer({ min: 0, max: 999 }), { minLength: 50, maxLength: 400 }),
        fc.integer({ min: -1, max: 1000 }),
        fc.oneof(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 1000 })),
        fc.array(fc.nat({ max: 399 }), { maxLength: 20 }),
        fc.nat({ max: 30 }),
        (ranks, low, width, deleted, page) => {
          const ds = createDatastore({
            dataClasses: [
              {
                name: 'Row',
                attributes: [
                  { name: 'ID', type: 'long' },
                  { name: 'rank', type: 'long', indexed: true, indexKind: 'sorted' },
                ],
                key: [{ name: 'ID' }],
              },
            ],
          })
          ds.loadData({ Row: ranks.map((rank, i) => ({ ID: i + 1, rank })) })
          const dc = ds.dataClass('Row')
          const table = dc.table
          const high = low + width
          const picked = dc.query('rank > :1 and rank < :2', low, high)
          const gone = [...new Set(deleted.map((d) => d % ranks.length))]
            .map((i) => i + 1)
            .filter((id) => ranks[id - 1]! > low && ranks[id - 1]! < high)
          ds.commit(gone.map((id) => ({ op: 'delete', table, before: table.recordByKey(id)! })))
          const live = ranks
            .map((rank, i) => ({ ID: i + 1, rank }))
            .filter((r) => r.rank > low && r.rank < high && !gone.includes(r.ID))
            .map((r) => r.ID)
          const want = [...live, ...gone.map(() => null)]
          expect(keysOf(picked)).toEqual(want)
          expect(keysOf(picked.window(0, page))).toEqual(want.slice(0, page))
        },
      ),
    )
  })
})
