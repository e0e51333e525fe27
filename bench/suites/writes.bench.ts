/**
 * @module The writes suite (issue 8): single updates, creates and deletes per second through the
 * core and through HTTP, and an atomic batch of 10 updates on a 1M-entity store, each next to a
 * hand-written `Map` doing the same in the same run.
 *
 * In process, on the query suite's `Person` store (`data.ts`: `name` unique with a hash and a
 * sorted index, `salary` sorted, `companyId` hash, `age` and `city` not indexed; the primary key
 * `id` has a sorted index of its own):
 * - the baseline is a `Map<id, row>` written by hand: a copy-on-write update
 *   (`map.set(k, { ...old, age })`), an insert of a copy, a delete; no checks, no indexes;
 * - an extra plain row keeps the engine's index structures by hand as well (`HandStore`: a Map per
 *   hash index, a pair of sorted arrays per sorted index, moved by binary search and `splice`),
 *   so that what index upkeep costs anyway shows apart from what the engine adds to it.
 *
 * Every call is a batch of writes on keys taken in turn from a seeded list (no entity written
 * twice in a row); creates and deletes are undone outside the clock before the next call, so the
 * store keeps its size.
 *
 * Through HTTP: the real `entistore serve` on the http suite's Items against a raw node:http server
 * over a Map (`child/raw-write-server.mjs`), the same write requests to both.
 */
import type { DataClass, Datastore } from '@entistore/core'
import type autocannon from 'autocannon'
import type { Core } from '../engine.ts'
import { makePeople, prng, type Person } from '../data.ts'
import { compareLoad, type LoadOptions, type LoadResult, type LoadTarget } from '../http-load.ts'
import { GROUPS, itemFiles } from '../items.ts'
import { settledRss, startNode, type Child } from '../processes.ts'
import { count, ms, perOp, ratio, sizeLabel, table } from '../report.ts'
import { median, timeOnce } from '../timing.ts'
import { CHILD, ENTISTORE, loadTable, ORIGIN, type GoalRow } from './http.bench.ts'
import { buildEngine, foldPlain, type Group } from './query.bench.ts'

/** A group of this suite: its table gets an ops/s column (throughput is the measure). */
export type WriteGroup = Group & { readonly rate: true }

/** The in-process operations and the two other parts, for `--only`. */
export const WRITE_OPS = [
  'write-update',
  'write-update-indexed',
  'write-update-hash',
  'write-create',
  'write-drop',
  'write-batch',
  'write-batch-indexed',
  'write-atomic',
  'write-http',
  'write-log',
]

/** Writes per call of a single-write case that moves no sorted-index entry. */
const OPS = 1000
/** Writes per call of one that does (each moves the tails of arrays of n entries: 50–500 µs). */
const OPS_SORTED = 250
/** Batches per call of a batch case. */
const BATCHES = 100
const BATCH = 10
/** Length of the rotating lists of keys and values. */
const ROTATION = 1 << 16

// ---------------------------------------------------------------- the hand-written store

/** (key, id) pairs in order, in two parallel arrays: a sorted index written by hand. */
class Sorted<K extends number | string> {
  readonly keys: K[] = []
  readonly ids: number[] = []

  constructor(pairs: [K, number][]) {
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]))
    for (const [k, id] of pairs) {
      this.keys.push(k)
      this.ids.push(id)
    }
  }

  #at(key: K, id: number): number {
    let lo = 0
    let hi = this.keys.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const k = this.keys[mid]!
      if (k < key || (k === key && this.ids[mid]! < id)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  add(key: K, id: number): void {
    const at = this.#at(key, id)
    this.keys.splice(at, 0, key)
    this.ids.splice(at, 0, id)
  }

  remove(key: K, id: number): void {
    const at = this.#at(key, id)
    if (this.ids[at] !== id) throw new Error(`hand index: (${key}, ${id}) not found`)
    this.keys.splice(at, 1)
    this.ids.splice(at, 1)
  }

  /** Whether the pairs are in order (checked once after the run). */
  ordered(): boolean {
    for (let i = 1; i < this.keys.length; i++) {
      const a = this.keys[i - 1]!
      const b = this.keys[i]!
      if (a > b || (a === b && this.ids[i - 1]! >= this.ids[i]!)) return false
    }
    return true
  }
}

/**
 * The engine's index structures on `Person`, kept by hand: the key order, `name` (folded: a unique
 * hash and a sorted index), `salary` (sorted), `companyId` (hash: id lists, swap-remove).
 */
class HandStore {
  readonly rows = new Map<number, Person>()
  readonly byName = new Map<string, number>()
  readonly byCompany = new Map<number, number[]>()
  readonly keyOrder: Sorted<number>
  readonly nameSorted: Sorted<string>
  readonly salarySorted: Sorted<number>

  constructor(data: readonly Person[]) {
    for (const r of data) {
      this.rows.set(r.id, r)
      this.byName.set(foldPlain(r.name), r.id)
      this.#addCompany(r.companyId, r.id)
    }
    this.keyOrder = new Sorted(data.map((r): [number, number] => [r.id, r.id]))
    this.nameSorted = new Sorted(data.map((r): [string, number] => [foldPlain(r.name), r.id]))
    this.salarySorted = new Sorted(data.map((r): [number, number] => [r.salary, r.id]))
  }

  #addCompany(c: number, id: number): void {
    const ids = this.byCompany.get(c)
    if (ids) ids.push(id)
    else this.byCompany.set(c, [id])
  }

  #removeCompany(c: number, id: number): void {
    const ids = this.byCompany.get(c)!
    const at = ids.indexOf(id)
    ids[at] = ids[ids.length - 1]!
    ids.pop()
  }

  /** Replaces row `id` by `next`, a copy of it (copy-on-write), moving the entries that change. */
  update(id: number, next: Person): void {
    const old = this.rows.get(id)
    if (!old) throw new Error(`no row ${id}`)
    if (next.salary !== old.salary) {
      this.salarySorted.remove(old.salary, id)
      this.salarySorted.add(next.salary, id)
    }
    if (next.companyId !== old.companyId) {
      this.#removeCompany(old.companyId, id)
      this.#addCompany(next.companyId, id)
    }
    this.rows.set(id, next)
  }

  insert(row: Person): void {
    const name = foldPlain(row.name)
    if (this.rows.has(row.id) || this.byName.has(name)) throw new Error(`taken: ${row.id}`)
    this.rows.set(row.id, { ...row })
    this.byName.set(name, row.id)
    this.#addCompany(row.companyId, row.id)
    this.keyOrder.add(row.id, row.id)
    this.nameSorted.add(name, row.id)
    this.salarySorted.add(row.salary, row.id)
  }

  delete(id: number): void {
    const old = this.rows.get(id)
    if (!old) throw new Error(`no row ${id}`)
    const name = foldPlain(old.name)
    this.rows.delete(id)
    this.byName.delete(name)
    this.#removeCompany(old.companyId, id)
    this.keyOrder.remove(id, id)
    this.nameSorted.remove(name, id)
    this.salarySorted.remove(old.salary, id)
  }

  consistent(): boolean {
    const n = this.rows.size
    return [this.keyOrder, this.nameSorted, this.salarySorted].every(
      (s) => s.keys.length === n && s.ordered(),
    )
  }
}

// ---------------------------------------------------------------- in-process groups

/** Seeded keys in 1…n and attribute values, read in turn by each case from its own cursor. */
interface Rotation {
  readonly keys: Int32Array
  readonly age: Int32Array
  readonly salary: Int32Array
  readonly companyId: Int32Array
}

function rotation(n: number): Rotation {
  const r = prng(8)
  const fill = (f: () => number): Int32Array => Int32Array.from({ length: ROTATION }, f)
  return {
    keys: fill(() => 1 + Math.floor(r() * n)),
    age: fill(() => 18 + Math.floor(r() * 52)),
    salary: fill(() => 20000 + Math.floor(r() * 180000)),
    companyId: fill(() => 1 + Math.floor(r() * 1000)),
  }
}

type Attr = 'age' | 'salary' | 'companyId'

// Object literals with the attribute written out (a computed key would make the baseline's copy
// slower than a programmer's): the copy-on-write row, and the values given to the engine.
const WITH: Record<Attr, (row: Person, v: number) => Person> = {
  age: (row, v) => ({ ...row, age: v }),
  salary: (row, v) => ({ ...row, salary: v }),
  companyId: (row, v) => ({ ...row, companyId: v }),
}
const VALUES: Record<Attr, (v: number) => Partial<Person>> = {
  age: (v) => ({ age: v }),
  salary: (v) => ({ salary: v }),
  companyId: (v) => ({ companyId: v }),
}

/** A cursor over the rotation: `next()` gives the position of the next write. */
function cursor(): { next: () => number } {
  let i = 0
  return { next: () => (i = (i + 1) & (ROTATION - 1)) }
}

export interface WriteFixture {
  readonly groups: WriteGroup[]
  /** Time to build the datastore and the hand-written store of `n` rows (not measures). */
  readonly loadMs: number
  readonly handMs: number
  /** After the groups ran: whether the hand-written store's indexes are still in order. */
  readonly handConsistent: () => boolean
}

/** The in-process write groups at `n` rows. */
export function writeGroups(core: Core, n: number): WriteFixture {
  const data = makePeople(n)
  const load = timeOnce(() => buildEngine(core, data))
  const ds: Datastore = load.value
  const dc: DataClass = ds.dataClass('Person')
  const map = new Map(data.map((r) => [r.id, r]))
  const hand = timeOnce(() => new HandStore(data))
  const h = hand.value
  const rot = rotation(n)

  /** Updates of `attr`: the Map baseline, the engine, and (for an indexed one) the hand store. */
  const updateCases = (attr: Attr, withHand: boolean, ops: number): Group['cases'] => {
    const values = rot[attr]
    const copy = WITH[attr]
    const given = VALUES[attr]
    const cases: Group['cases'] = []
    const m = cursor()
    cases.push({
      kind: 'baseline',
      impl: `Map: map.set(k, { ...old, ${attr} })`,
      opsPerCall: ops,
      run: () => {
        for (let i = 0; i < ops; i++) {
          const at = m.next()
          const k = rot.keys[at]!
          map.set(k, copy(map.get(k)!, values[at]!))
        }
        return ops
      },
    })
    if (withHand) {
      const c = cursor()
      cases.push({
        kind: 'plain',
        impl: 'Map + the same indexes by hand',
        opsPerCall: ops,
        run: () => {
          for (let i = 0; i < ops; i++) {
            const at = c.next()
            const k = rot.keys[at]!
            h.update(k, copy(h.rows.get(k)!, values[at]!))
          }
          return ops
        },
      })
    }
    const e = cursor()
    cases.push({
      kind: 'entistore',
      impl: `entistore dc.update(k, { ${attr} })`,
      opsPerCall: ops,
      run: () => {
        for (let i = 0; i < ops; i++) {
          const at = e.next()
          dc.update(rot.keys[at]!, given(values[at]!))
        }
        return ops
      },
    })
    return cases
  }

  // Creates: ids n+1 … n+OPS_SORTED, dropped again before the next call (outside the clock).
  const fresh = makePeople(OPS_SORTED, 99).map((p, i) => ({
    ...p,
    id: n + 1 + i,
    name: `new${n + 1 + i}`,
  }))
  const undoCreates = (has: (id: number) => boolean, drop: (id: number) => void) => (): void => {
    for (const p of fresh) if (has(p.id)) drop(p.id)
  }

  // Deletes: windows of OPS_SORTED distinct keys from a seeded permutation; the previous call's window is
  // put back (its rows as generated) before the next call, outside the clock.
  const order = Int32Array.from({ length: n }, (_, i) => i + 1)
  const r = prng(9)
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1))
    const t = order[i]!
    order[i] = order[j]!
    order[j] = t
  }
  const window = Math.min(OPS_SORTED, n)
  const dropCase = (
    kind: 'baseline' | 'plain' | 'entistore',
    impl: string,
    drop: (id: number) => void,
    put: (row: Person) => void,
  ): Group['cases'][number] => {
    let start = -1
    return {
      kind,
      impl,
      opsPerCall: window,
      prepare: () => {
        if (start >= 0) for (let i = 0; i < window; i++) put(data[order[start + i]! - 1]!)
        start = start < 0 || start + 2 * window > n ? 0 : start + window
      },
      run: () => {
        for (let i = 0; i < window; i++) drop(order[start + i]!)
        return window
      },
    }
  }

  const batchCases = (attr: Attr): Group['cases'] => {
    const values = rot[attr]
    const copy = WITH[attr]
    const given = VALUES[attr]
    const m = cursor()
    const e = cursor()
    const staged: [number, Person][] = new Array(BATCH)
    return [
      {
        kind: 'baseline',
        impl: `Map: 10 × { ...old, ${attr} } staged, then 10 × set`,
        opsPerCall: BATCHES,
        run: () => {
          for (let b = 0; b < BATCHES; b++) {
            for (let j = 0; j < BATCH; j++) {
              const at = m.next()
              const k = rot.keys[at]!
              const old = map.get(k)
              if (!old) throw new Error(`no row ${k}`)
              staged[j] = [k, copy(old, values[at]!)]
            }
            for (const [k, row] of staged) map.set(k, row)
          }
          return BATCHES
        },
      },
      {
        kind: 'entistore',
        impl: `entistore ds.transaction(() => 10 × dc.update(k, { ${attr} }))`,
        opsPerCall: BATCHES,
        run: () => {
          for (let b = 0; b < BATCHES; b++)
            ds.transaction(() => {
              for (let j = 0; j < BATCH; j++) {
                const at = e.next()
                dc.update(rot.keys[at]!, given(values[at]!))
              }
            })
          return BATCHES
        },
      },
    ]
  }

  const writes = (ops: number): string => `${count(ops)} writes a call`
  const groups: WriteGroup[] = [
    {
      id: 'write-update',
      rate: true,
      title: `update, no index  dc.update(k, { age })  (${writes(OPS)}, rotating keys)`,
      notes: ['`age` has no index: the row is replaced, no index entry moves'],
      cases: updateCases('age', false, OPS),
    },
    {
      id: 'write-update-indexed',
      rate: true,
      title: `update, sorted index  dc.update(k, { salary })  (${writes(OPS_SORTED)}, rotating keys)`,
      notes: [
        '`salary` has a sorted index: each update moves its entry to its new place (two binary ' +
          'searches, then the entries between the old and new place shift by one)',
        'hand row: the same two moves on a pair of JS arrays (keys, ids) with splice',
      ],
      cases: updateCases('salary', true, OPS_SORTED),
    },
    {
      id: 'write-update-hash',
      rate: true,
      title: `update, hash index  dc.update(k, { companyId })  (${writes(OPS)}, rotating keys)`,
      notes: ['`companyId` has a hash index: the row id leaves one bucket for another'],
      cases: updateCases('companyId', true, OPS),
    },
    {
      id: 'write-create',
      rate: true,
      title: `create  dc.create({ id, name, age, city, salary, companyId })  (${writes(OPS_SORTED)})`,
      notes: [
        `ids ${count(n + 1)}…${count(n + OPS_SORTED)}, dropped again outside the clock before each call`,
        'indexes touched: key order (appended), name (unique hash + sorted), salary (sorted), ' +
          'companyId (hash); the engine also checks types and the unique name',
      ],
      cases: [
        {
          kind: 'baseline',
          impl: 'Map: map.set(id, { ...row })',
          opsPerCall: OPS_SORTED,
          prepare: undoCreates(
            (id) => map.has(id),
            (id) => map.delete(id),
          ),
          run: () => {
            for (const p of fresh) map.set(p.id, { ...p })
            return OPS_SORTED
          },
        },
        {
          kind: 'plain',
          impl: 'Map + the same indexes by hand',
          opsPerCall: OPS_SORTED,
          prepare: undoCreates(
            (id) => h.rows.has(id),
            (id) => h.delete(id),
          ),
          run: () => {
            for (const p of fresh) h.insert(p)
            return OPS_SORTED
          },
        },
        {
          kind: 'entistore',
          impl: 'entistore dc.create(row)',
          opsPerCall: OPS_SORTED,
          prepare: undoCreates(
            (id) => dc.get(id) !== null,
            (id) => dc.drop(id),
          ),
          run: () => {
            for (const p of fresh) dc.create(p)
            return OPS_SORTED
          },
        },
      ],
    },
    {
      id: 'write-batch',
      rate: true,
      title: `atomic batch of 10 updates, no index  (${BATCHES} batches a call; per op = per batch)`,
      notes: ['baseline: the 10 new rows are made first (all-or-nothing), then set'],
      cases: batchCases('age'),
    },
    {
      id: 'write-batch-indexed',
      rate: true,
      title: `atomic batch of 10 updates, sorted index  (${BATCHES} batches a call; per op = per batch)`,
      notes: ['`salary`: 10 entries of the sorted index move, each as in write-update-indexed'],
      cases: batchCases('salary'),
    },
    {
      id: 'write-drop',
      rate: true,
      // Last: its last window stays deleted, and the other groups write random keys.
      title: `delete  dc.drop(k)  (${count(window)} random existing keys a call)`,
      notes: [
        'each call deletes the next window of a seeded permutation of the keys; the previous ' +
          'window is created again outside the clock',
        'indexes touched: all five entries of the row move out (key order, name hash + sorted, ' +
          'salary sorted, companyId hash)',
      ],
      cases: [
        dropCase(
          'baseline',
          'Map: map.delete(k)',
          (id) => map.delete(id),
          (row) => map.set(row.id, row),
        ),
        dropCase(
          'plain',
          'Map + the same indexes by hand',
          (id) => h.delete(id),
          (row) => h.insert(row),
        ),
        dropCase(
          'entistore',
          'entistore dc.drop(k)',
          (id) => dc.drop(id),
          (row) => dc.create({ ...row }),
        ),
      ],
    },
  ]
  return {
    groups,
    loadMs: load.ms,
    handMs: hand.ms,
    handConsistent: () => h.consistent() && h.rows.size === dc.length,
  }
}

// ---------------------------------------------------------------- atomic batches on a big store

/** The goal of issue 8: an atomic batch of 10 updates on 1M entities, in process. */
const BATCH_GOAL = { maxMs: 1, label: 'median < 1 ms' }

/** The p-quantile (0…1) of `xs`, nearest rank. */
function quantile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))]! : NaN
}

const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6

/**
 * `batches` atomic batches of 10 updates on a store of `n` rows, each timed on its own (median
 * and p99 per batch), against a Map doing the same; the three implementations alternate batch by
 * batch so that a drift of the machine hits them alike. Prints the table; returns the goal rows.
 */
export function atomicBatches(core: Core, n: number, batches: number): GoalRow[] {
  const data = makePeople(n)
  const load = timeOnce(() => buildEngine(core, data))
  const ds = load.value
  const dc = ds.dataClass('Person')
  const map = new Map(data.map((r) => [r.id, r]))
  const rot = rotation(n)
  let at = 0
  const staged: [number, Person][] = new Array(BATCH)
  // `goal`: the label of the goal row (the engine's rows are held to the goal).
  const impls: { label: string; goal?: string; batch: () => void }[] = [
    {
      label: 'Map: 10 × { ...old, age } staged, then set',
      batch: () => {
        for (let j = 0; j < BATCH; j++) {
          at = (at + 1) & (ROTATION - 1)
          const k = rot.keys[at]!
          const old = map.get(k)
          if (!old) throw new Error(`no row ${k}`)
          staged[j] = [k, WITH.age(old, rot.age[at]!)]
        }
        for (const [k, row] of staged) map.set(k, row)
      },
    },
    ...(['age', 'salary'] as const).map((attr) => ({
      label:
        `entistore ds.transaction(10 × dc.update(k, { ${attr} }))` +
        (attr === 'age' ? ', no index' : ', sorted index'),
      goal: `entistore, 10 × ${attr} (${attr === 'age' ? 'no index' : 'sorted index'})`,
      batch: () =>
        ds.transaction(() => {
          for (let j = 0; j < BATCH; j++) {
            at = (at + 1) & (ROTATION - 1)
            dc.update(rot.keys[at]!, VALUES[attr](rot[attr][at]!))
          }
        }),
    })),
  ]
  const samples = impls.map((): number[] => [])
  const warmup = Math.min(100, batches)
  const t0 = Date.now()
  for (let b = 0; b < warmup + batches; b++)
    for (let i = 0; i < impls.length; i++) {
      const s = nowMs()
      impls[i]!.batch()
      const took = nowMs() - s
      if (b >= warmup) samples[i]!.push(took)
    }
  const runMs = Date.now() - t0

  console.log(
    `\n### atomic batch of 10 updates — ${sizeLabel(n)} rows ` +
      `(loaded in ${ms(load.ms)} ms; ${count(batches)} timed batches each after ${warmup} ` +
      `untimed, alternating; ${ms(runMs / 1000)} s)`,
  )
  const base = { med: median(samples[0]!), p99: quantile(samples[0]!, 0.99) }
  const goals: GoalRow[] = []
  const rows = impls.map((impl, i) => {
    const med = median(samples[i]!)
    const p99 = quantile(samples[i]!, 0.99)
    const verdict = impl.goal ? (med < BATCH_GOAL.maxMs ? 'PASS' : 'MISS') : ''
    if (impl.goal)
      goals.push([
        sizeLabel(n),
        'atomic batch of 10',
        impl.goal,
        `${ms(med)} ms (${ratio(med / base.med)} Map)`,
        BATCH_GOAL.label,
        verdict as 'PASS' | 'MISS',
      ])
    return [
      impl.label,
      ms(med),
      ratio(med / base.med),
      ms(p99),
      ratio(p99 / base.p99),
      count(Math.round(1000 / med)),
      verdict ? `${verdict} ${BATCH_GOAL.label}` : '',
    ]
  })
  console.log(
    table(['implementation', 'median ms', '× Map', 'p99 ms', '× Map', 'batches/s', 'goal'], rows, [
      'l',
      'r',
      'r',
      'r',
      'r',
      'r',
      'l',
    ]),
  )
  console.log(
    `- per batch: ${perOp(median(samples[1]!))} no index, ${perOp(median(samples[2]!))} ` +
      'sorted index (median); p99 includes the garbage collections the batches cause',
  )
  return goals
}

// ---------------------------------------------------------------- HTTP

export interface WritesHttpOptions {
  /** Item rows of the two servers. */
  readonly rows: number
  readonly startupTimeoutMs: number
  readonly load: LoadOptions
}

export const JSON_HEADERS = { 'content-type': 'application/json' }
export const UPDATE_PATH = '/rest/Item?$method=update'
/** Keys of the Items created for the delete measure: far above the file's and the creates'. */
const POOL_BASE = 10_000_001
/** Delete requests per connection and second of a timed round (a round is a count of them). */
const DELETES_PER_CONNECTION_SECOND = 100
/** Items per POST when the delete pool is created (one atomic batch: the bulk commit path). */
const POOL_CHUNK = 8000
/**
 * Where the keys of the creates with a given key start (issue 31): a write must not cost more for
 * its key's value. Above the file's keys, then past the delete pool's: a 4D sequence's numbers,
 * imported IDs in the tens of millions, and past a billion (a long is 32 bits). The measures add
 * a row of random UUID keys (ImportedItem: the same attributes and indexes as Item).
 */
export const KEY_RANGES = [1_000_001, 30_000_001, 50_000_001, 1_000_000_001] as const

/** A version 4 UUID in 4D's form (32 hex digits, no dashes), drawn from `r`. */
export function randomUuid(r: () => number): string {
  let hex = ''
  for (let i = 0; i < 4; i++)
    hex += Math.floor(r() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, '0')
  return `${hex.slice(0, 12)}4${hex.slice(13, 16)}${'89ab'[parseInt(hex[16]!, 16) & 3]}${hex.slice(17)}`.toUpperCase()
}

export const randomItem = (r: () => number): Record<string, unknown> => ({
  name: `written ${Math.floor(r() * 1e6)}`,
  groupID: 1 + Math.floor(r() * GROUPS),
  price: Math.round(r() * 100_000) / 100,
  qty: Math.floor(r() * 1000),
  created: new Date(Date.UTC(2015, 0, 1) + Math.floor(r() * 3650) * 86_400_000)
    .toISOString()
    .slice(0, 10),
})

/** POSTs `body` to `origin + path`; throws unless the reply is a 200 with JSON. Returns its size. */
async function post(origin: string, path: string, body: unknown): Promise<number> {
  const res = await fetch(origin + path, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${text.slice(0, 200)}`)
  JSON.parse(text)
  return Buffer.byteLength(text)
}

interface WriteMeasure {
  readonly title: string
  /** Creates with given keys: where the keys start, or UUIDs (a summary row of KEY_RANGES). */
  readonly byKey?: number | 'uuid'
  /** A request per target: the delete measure's targets each keep their own key counter. */
  readonly request: () => (random: () => number) => autocannon.Request
  readonly load: LoadOptions
}

/**
 * Starts `entistore serve` and the raw Map server on the same data file, then loads both with
 * single updates, creates and deletes by key. Prints one table per measure (no goal).
 */
export async function runWritesHttp(o: WritesHttpOptions): Promise<void> {
  const files = itemFiles(o.rows)
  const children: Child[] = []
  try {
    const ent = await startNode(
      `${ENTISTORE.label} (${sizeLabel(o.rows)} rows)`,
      ENTISTORE.args(files),
      ENTISTORE.ready,
      o.startupTimeoutMs,
    )
    children.push(ent.child)
    const raw = await startNode(
      'raw node:http writes',
      [CHILD('raw-write-server.mjs'), files.data],
      /^raw node:http writes at /,
      o.startupTimeoutMs,
    )
    children.push(raw.child)
    const origins = [ORIGIN.exec(raw.line)![0], ORIGIN.exec(ent.line)![0]]

    // Replies of one update and one create, checked (a broken server must not be "measured").
    const sample = prng(2)
    const sizes: number[] = []
    for (const origin of origins) {
      sizes.push(await post(origin, UPDATE_PATH, { __KEY: '1', qty: 1 }))
      sizes.push(await post(origin, UPDATE_PATH, randomItem(sample)))
    }

    // Deletes send each key once: a round is a count of requests (http-load's `once`), and the
    // Items they delete are created on both servers first (same keys, same values).
    const deleteLoad: LoadOptions = {
      ...o.load,
      once: true,
      pathsPerConnection: Math.max(1, Math.round(DELETES_PER_CONNECTION_SECOND * o.load.seconds)),
    }
    // As http-load sizes a round in `once` mode.
    const perRound = (seconds: number): number =>
      o.load.connections *
      Math.max(1, Math.round((deleteLoad.pathsPerConnection * seconds) / o.load.seconds))
    const poolSize = perRound(o.load.warmupSeconds) + o.load.rounds * perRound(o.load.seconds)
    const pool = prng(3)
    const poolItems = Array.from({ length: poolSize }, (_, i) => ({
      ID: POOL_BASE + i,
      ...randomItem(pool),
    }))
    const poolMs: number[] = []
    for (const origin of origins) {
      const t0 = performance.now()
      for (let i = 0; i < poolSize; i += POOL_CHUNK)
        await post(origin, `${UPDATE_PATH}&$atomic=true`, poolItems.slice(i, i + POOL_CHUNK))
      poolMs.push(performance.now() - t0)
    }
    // Both servers idle and collected (loading and the pool leave garbage) before any load.
    for (const c of children) await settledRss(c)

    const measures: WriteMeasure[] = [
      {
        title: `POST ${UPDATE_PATH}  {"__KEY": k, "qty": v}  (one entity, random keys, no __STAMP)`,
        request: () => (r) => ({
          method: 'POST',
          path: UPDATE_PATH,
          headers: JSON_HEADERS,
          body: JSON.stringify({
            __KEY: String(1 + Math.floor(r() * o.rows)),
            qty: Math.floor(r() * 1000),
          }),
        }),
        load: o.load,
      },
      {
        title: `POST ${UPDATE_PATH}  {name, groupID, price, qty, created}  (one new entity)`,
        request: () => (r) => ({
          method: 'POST',
          path: UPDATE_PATH,
          headers: JSON_HEADERS,
          body: JSON.stringify(randomItem(r)),
        }),
        load: o.load,
      },
      {
        title: `POST /rest/ImportedItem?$method=update  {ID: uuid, name, groupID, price, qty, created}  (one new entity, a random UUID key: an Item's attributes and indexes)`,
        request: () => (r) => ({
          method: 'POST',
          path: '/rest/ImportedItem?$method=update',
          headers: JSON_HEADERS,
          body: JSON.stringify({ ID: randomUuid(r), ...randomItem(r) }),
        }),
        load: o.load,
        byKey: 'uuid',
      },
      ...KEY_RANGES.map((base): WriteMeasure => ({
        title: `POST ${UPDATE_PATH}  {ID: k, name, groupID, price, qty, created}  (one new entity, its key given: k from ${count(base)} up)`,
        request: () => {
          let next = base
          return (r) => ({
            method: 'POST',
            path: UPDATE_PATH,
            headers: JSON_HEADERS,
            body: JSON.stringify({ ID: next++, ...randomItem(r) }),
          })
        },
        load: o.load,
        byKey: base,
      })),
      {
        title: 'POST /rest/Item(k)?$method=delete  (each key once, of the Items created for it)',
        request: () => {
          let next = POOL_BASE
          return () => ({ method: 'POST', path: `/rest/Item(${next++})?$method=delete` })
        },
        load: deleteLoad,
      },
    ]
    console.log(
      `\nload: autocannon, ${o.load.connections} keep-alive connections, ` +
        `${o.load.warmupSeconds} s warm-up each, then ${o.load.rounds} × ${o.load.seconds} s per ` +
        `server, alternating (raw, entistore, raw…); deletes: ${count(perRound(o.load.seconds))} ` +
        `requests a round (${count(deleteLoad.pathsPerConnection)} a connection, each key once) ` +
        `instead of a duration. Raw node:http: a Map<ID, row> of the same file's Items, ` +
        `copy-on-write update, insert, delete, the row as JSON (reply ${count(sizes[0]!)} B ` +
        `for an update, entistore ${count(sizes[2]!)} B). Delete pool: ${count(poolSize)} ` +
        `Items created first on each server (${ms(poolMs[0]!)} / ${ms(poolMs[1]!)} ms, ` +
        `atomic POSTs of ${count(POOL_CHUNK)}).`,
    )
    const byKey: { base: number | 'uuid'; e: LoadResult; r: LoadResult }[] = []
    for (const m of measures) {
      const targets: LoadTarget[] = [
        { label: 'raw node:http, Map', origin: origins[0]!, request: m.request() },
        { label: 'entistore serve', origin: origins[1]!, request: m.request() },
      ]
      const [r, e] = await compareLoad(targets, m.load)
      console.log(`\n### ${m.title} — ${sizeLabel(o.rows)} rows`)
      console.log(loadTable([r!, e!]))
      if (r!.non2xx || r!.errors || e!.non2xx || e!.errors)
        console.log('- WARNING: non-2xx replies or dropped connections (not counted)')
      if (m.byKey !== undefined) byKey.push({ base: m.byKey, e: e!, r: r! })
    }
    // One line per key range: what a create costs must not depend on its key's value.
    const rates = byKey.map(({ e }) => e.rps)
    console.log(
      `\n### Creates with a given key, by the keys' range — entistore's slowest range ${ratio(Math.min(...rates) / Math.max(...rates))} of its fastest`,
    )
    console.log(
      table(
        ['keys', 'entistore writes/s', 'entistore p99', 'raw writes/s', '× raw'],
        byKey.map(({ base, e, r }) => [
          base === 'uuid' ? 'random UUIDs' : `from ${count(base)}`,
          count(Math.round(e.rps)),
          `${e.p99.toFixed(2)} ms`,
          count(Math.round(r.rps)),
          ratio(e.rps / r.rps),
        ]),
        ['l', 'r', 'r', 'r', 'r'],
      ),
    )
  } finally {
    for (const c of children) await c.stop()
  }
}
