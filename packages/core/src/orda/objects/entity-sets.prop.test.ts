/**
 * Property tests of entity sets through a real datastore (a dataclass of a few hundred rows), each
 * against a plain model:
 * - members: a kept set returns its members in the order it was kept, however often it is read;
 *   entities deleted since count and read as null; `clean` drops exactly those, in order, leaves the
 *   kept set as it was, and is idempotent;
 * - lifetimes on a ManualClock: a set lives exactly `timeout` seconds after its last access (alive at
 *   `timeout`, gone 1 ms later), every `get` restarts that, `info()` shows `refreshed` = the last
 *   access and `expires` = refreshed + timeout without touching either;
 * - the cache as a whole (fc.commands): keeps, gets, releases, deletes of entities and time moving,
 *   against a model of id → {members, timeout, last access} in recency order, with the least
 *   recently used evicted (or the new set refused) past the count and member limits;
 * - bounded memory: 5,000 sets of random sizes made and abandoned stay within the limits all along,
 *   and leave the heap bounded; with the default limits, sets two hours old are gone.
 */
import fc from 'fast-check'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../clock/clock.js'
import { thrown } from '../../errors/thrown.fixture.js'
import type { ModelJson } from '../../schema/model-json.js'
import type { EntitySetStoreOptions } from '../../sets/entity-set-store.js'
import { createDatastore } from './datastore.js'
import type { EntitySelection } from './entity-selection.js'

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'n', type: 'long' },
      ],
      key: [{ name: 'ID' }],
    },
  ],
}

const fresh = (rows: number, entitySets?: EntitySetStoreOptions) => {
  const clock = new ManualClock(Date.UTC(2026, 0, 1))
  let uuid = 0
  const ds = createDatastore(MODEL, {
    data: { Item: Array.from({ length: rows }, (_, i) => ({ ID: i + 1, n: (i * 37) % rows })) },
    clock,
    newUuid: () => `${(++uuid).toString(16).padStart(8, '0')}-0000-0000-0000-000000000000`,
    ...(entitySets ? { entitySets } : {}),
  })
  const Item = ds.dataClass('Item')
  // Row ids by key, taken once: a selection made of them may hold entities deleted since.
  const rowOf = new Map(
    Item.all()
      .toArray()
      .map((e) => [e.key as number, e.rowId]),
  )
  /** The selection of these keys in this order (as an ordered read would give it). */
  const selectionOf = (keys: readonly number[]): EntitySelection =>
    Item.select(keys.map((k) => rowOf.get(k)!))
  return { ds, clock, Item, selectionOf }
}

/** Keys in order, null for a deleted member. */
const keysOf = (s: EntitySelection): (number | null)[] =>
  s.members().map((e) => (e ? (e.key as number) : null))

/** Distinct keys 1…rows in random order. */
const keysArb = (rows: number, maxLength: number) =>
  fc.uniqueArray(fc.integer({ min: 1, max: rows }), { maxLength })

describe('entity sets: members, deleted members and clean', () => {
  const ROWS = 200
  type Step = { keep: number[] } | { drop: number } | { keepClean: number }
  const stepArb: fc.Arbitrary<Step> = fc.oneof(
    keysArb(ROWS, 90).map((keep) => ({ keep })),
    fc.integer({ min: 1, max: ROWS }).map((drop) => ({ drop })),
    fc.nat().map((keepClean) => ({ keepClean })),
  )

  it('counts deleted members, reads them as null, keeps the order; clean drops exactly them', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 25 }), (steps) => {
        const { ds, Item, selectionOf } = fresh(ROWS)
        const sets: { id: string; keys: number[] }[] = []
        const deleted = new Set<number>()
        const live = (keys: readonly number[]) => keys.filter((k) => !deleted.has(k))
        for (const step of steps) {
          if ('keep' in step) {
            sets.push({ id: selectionOf(step.keep).keep().id, keys: step.keep })
          } else if ('drop' in step) {
            if (!deleted.has(step.drop)) Item.drop(step.drop)
            deleted.add(step.drop)
          } else if (sets.length) {
            // $clean=true with $method=entityset: a new set without the deleted members.
            const from = sets[step.keepClean % sets.length]!
            const cleaned = ds.entitySets.getOrFail(from.id).selection.clean().keep()
            sets.push({ id: cleaned.id, keys: live(from.keys) })
          }
          for (const { id, keys } of sets) {
            const set = ds.entitySets.getOrFail(id)
            expect(set.selection.length).toBe(keys.length)
            expect(keysOf(set.selection)).toEqual(keys.map((k) => (deleted.has(k) ? null : k)))
            expect(set.selection.toArray().map((e) => e.key)).toEqual(live(keys))
            const clean = set.selection.clean()
            expect(keysOf(clean)).toEqual(live(keys))
            expect(clean.length).toBe(live(keys).length)
            expect(clean.clean()).toBe(clean)
            // The kept set is left as it was.
            expect(keysOf(ds.entitySets.getOrFail(id).selection)).toEqual(keysOf(set.selection))
          }
        }
        expect(ds.entitySets.size).toBe(sets.length)
        expect(ds.entitySets.members).toBe(sets.reduce((n, s) => n + Math.max(1, s.keys.length), 0))
      }),
      { numRuns: 80 },
    )
  })

  it('combines kept sets with deleted members as their row ids: deleted members still take part', () => {
    fc.assert(
      fc.property(
        keysArb(ROWS, 90),
        keysArb(ROWS, 90),
        fc.uniqueArray(fc.integer({ min: 1, max: ROWS }), { maxLength: 60 }),
        (a, b, drops) => {
          const { ds, Item, selectionOf } = fresh(ROWS)
          const [idA, idB] = [selectionOf(a).keep().id, selectionOf(b).keep().id]
          for (const k of drops) Item.drop(k)
          const gone = new Set(drops)
          const sa = ds.entitySets.getOrFail(idA).selection
          const sb = ds.entitySets.getOrFail(idB).selection
          const inB = new Set(b)
          const inA = new Set(a)
          const shown = (keys: number[]) => keys.map((k) => (gone.has(k) ? null : k))
          expect(keysOf(sa.and(sb))).toEqual(shown(a.filter((k) => inB.has(k))))
          expect(keysOf(sa.or(sb))).toEqual(shown([...a, ...b.filter((k) => !inA.has(k))]))
          expect(keysOf(sa.minus(sb))).toEqual(shown(a.filter((k) => !inB.has(k))))
          expect(sa.intersects(sb)).toBe(a.some((k) => inB.has(k)))
          // Cleaning before or after AND gives the same live members.
          expect(keysOf(sa.and(sb).clean())).toEqual(keysOf(sa.clean().and(sb.clean())))
        },
      ),
      { numRuns: 150 },
    )
  })

  it('a kept set does not grow when entities are created afterwards', () => {
    const { ds, Item } = fresh(50)
    const all = Item.all().keep()
    const ordered = Item.query('ID > 10 order by n desc').keep({ sorted: true })
    const before = keysOf(ds.entitySets.getOrFail(ordered.id).selection)
    for (let i = 0; i < 20; i++) Item.create({ n: i })
    expect(ds.entitySets.getOrFail(all.id).selection.length).toBe(50)
    expect(keysOf(ds.entitySets.getOrFail(ordered.id).selection)).toEqual(before)
    expect(Item.all().length).toBe(70)
  })
})

describe('entity sets: lifetimes on the clock', () => {
  /** A timeout in seconds and the pauses (ms) between reads, bunched around the timeout. */
  const scenario = fc
    .integer({ min: 1, max: 20_000 })
    .chain((timeout) =>
      fc.tuple(
        fc.constant(timeout),
        fc.array(
          fc.oneof(
            fc.constant(timeout * 1000),
            fc.constant(timeout * 1000 + 1),
            fc.constant(timeout * 1000 - 1),
            fc.integer({ min: 0, max: 2 * timeout * 1000 }),
          ),
          { minLength: 1, maxLength: 12 },
        ),
      ),
    )

  it('a set lives exactly `timeout` s after its last access; every get restarts it; info agrees', () => {
    fc.assert(
      fc.property(scenario, ([timeout, pauses]) => {
        const { ds, clock, Item } = fresh(10)
        const set = Item.all().keep({ timeout })
        expect(set.timeout).toBe(timeout)
        let lastAccess = clock.now()
        let alive = true
        for (const pause of pauses) {
          clock.advance(pause)
          alive = alive && clock.now() - lastAccess <= timeout * 1000
          // info() reads without renewing: asked twice, the same answer.
          for (let i = 0; i < 2; i++) {
            const info = ds.entitySets.info()
            if (alive)
              expect(info).toEqual([
                {
                  id: set.id,
                  dataClass: 'Item',
                  selectionSize: 10,
                  sorted: false,
                  refreshed: lastAccess,
                  expires: lastAccess + timeout * 1000,
                },
              ])
            else expect(info).toEqual([])
          }
          expect(ds.entitySets.size).toBe(alive ? 1 : 0)
          expect(ds.entitySets.get(set.id)?.id).toBe(alive ? set.id : undefined)
          if (alive) lastAccess = clock.now()
        }
        expect(ds.entitySets.release(set.id)).toBe(alive)
        expect(ds.entitySets.get(set.id)).toBeUndefined()
        expect(ds.entitySets.release(set.id)).toBe(false)
      }),
      { numRuns: 200 },
    )
  })

  it('defaults to 7200 s, caps a timeout at maxTimeout, and never goes under 1 s', () => {
    const { ds, clock, Item } = fresh(3, { maxTimeout: 3600 })
    expect(Item.all().keep().timeout).toBe(7200)
    expect(Item.all().keep({ timeout: 1e9 }).timeout).toBe(3600)
    const short = Item.all().keep({ timeout: 0 })
    expect(short.timeout).toBe(1)
    clock.advance(1000)
    expect(ds.entitySets.get(short.id)).toBeDefined()
    clock.advance(1001)
    expect(ds.entitySets.get(short.id)).toBeUndefined()
  })

  it('peek-like reads (size, members, info) do not renew a set', () => {
    const { ds, clock, Item } = fresh(3)
    const set = Item.all().keep({ timeout: 10 })
    for (let i = 0; i < 10; i++) {
      clock.advance(1000)
      expect(ds.entitySets.size + ds.entitySets.members + ds.entitySets.info().length).toBe(5)
    }
    clock.advance(1)
    expect(ds.entitySets.get(set.id)).toBeUndefined()
  })

  // Found by this suite: lru-cache's delete() answers true for an entry that is past its lifetime
  // but not yet swept, so `release` of an expired set once answered true.
  it('release of an expired set answers false, as for a set that never was', () => {
    const { ds, clock, Item } = fresh(3)
    const set = Item.all().keep({ timeout: 10 })
    clock.advance(10_001)
    expect(ds.entitySets.release(set.id)).toBe(false)
  })
})

describe('entity sets: the cache against a model (fc.commands)', () => {
  const ROWS = 60
  const MAX_SETS = 4
  const MAX_MEMBERS = 50
  const DEFAULT_TIMEOUT = 50

  interface Entry {
    id: string
    keys: readonly number[]
    timeout: number
    lastAccess: number
  }
  interface Model {
    now: number
    /** Least recently used first. */
    live: Entry[]
    /** Every id ever made, so that reads also ask for released and expired sets. */
    ids: string[]
    deleted: Set<number>
    refuse: boolean
  }
  type Real = ReturnType<typeof fresh>
  type Cmd = fc.Command<Model, Real>

  const expired = (m: Model, e: Entry) => m.now - e.lastAccess > e.timeout * 1000
  const purge = (m: Model) => {
    m.live = m.live.filter((e) => !expired(m, e))
  }
  const weight = (e: Entry) => Math.max(1, e.keys.length)
  const total = (m: Model) => m.live.reduce((n, e) => n + weight(e), 0)
  const pickId = (m: Model, pick: number) =>
    m.ids.length ? m.ids[pick % m.ids.length]! : 'FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF'

  class Keep implements Cmd {
    constructor(
      readonly keys: number[],
      readonly timeout: number | undefined,
    ) {}
    check = () => true
    run(m: Model, r: Real): void {
      purge(m)
      const size = Math.max(1, this.keys.length)
      const refused =
        size > MAX_MEMBERS ||
        (m.refuse && (m.live.length >= MAX_SETS || total(m) + size > MAX_MEMBERS))
      const keep = () =>
        r.selectionOf(this.keys).keep(this.timeout === undefined ? {} : { timeout: this.timeout })
      if (refused) {
        expect(thrown(keep).errCode).toBe(9060)
        return
      }
      const id = keep().id
      if (m.live.length === MAX_SETS) m.live.shift()
      m.live.push({
        id,
        keys: this.keys,
        timeout: this.timeout ?? DEFAULT_TIMEOUT,
        lastAccess: m.now,
      })
      while (total(m) > MAX_MEMBERS) m.live.shift()
      m.ids.push(id)
    }
    toString = () => `keep([${this.keys.join(',')}], ${this.timeout})`
  }

  class Get implements Cmd {
    constructor(readonly pick: number) {}
    check = () => true
    run(m: Model, r: Real): void {
      const id = pickId(m, this.pick)
      const e = m.live.find((x) => x.id === id)
      if (e && expired(m, e)) m.live = m.live.filter((x) => x !== e)
      const set = r.ds.entitySets.get(id)
      if (!e || expired(m, e)) {
        expect(set).toBeUndefined()
        return
      }
      e.lastAccess = m.now
      m.live = [...m.live.filter((x) => x !== e), e]
      expect(set?.id).toBe(id)
      expect(keysOf(set!.selection)).toEqual(e.keys.map((k) => (m.deleted.has(k) ? null : k)))
    }
    toString = () => `get(${this.pick})`
  }

  class Release implements Cmd {
    constructor(readonly pick: number) {}
    check = () => true
    run(m: Model, r: Real): void {
      const id = pickId(m, this.pick)
      const e = m.live.find((x) => x.id === id)
      const released = r.ds.entitySets.release(id)
      m.live = m.live.filter((x) => x !== e)
      expect(released).toBe(!!e && !expired(m, e))
    }
    toString = () => `release(${this.pick})`
  }

  class Advance implements Cmd {
    constructor(readonly ms: number) {}
    check = () => true
    run(m: Model, r: Real): void {
      m.now += this.ms
      r.clock.advance(this.ms)
    }
    toString = () => `advance(${this.ms})`
  }

  class Drop implements Cmd {
    constructor(readonly key: number) {}
    check = (m: Readonly<Model>) => !m.deleted.has(this.key)
    run(m: Model, r: Real): void {
      r.Item.drop(this.key)
      m.deleted.add(this.key)
    }
    toString = () => `drop(${this.key})`
  }

  class Info implements Cmd {
    check = () => true
    run(m: Model, r: Real): void {
      purge(m)
      expect(r.ds.entitySets.info()).toEqual(
        [...m.live].reverse().map((e) => ({
          id: e.id,
          dataClass: 'Item',
          selectionSize: e.keys.length,
          sorted: false,
          refreshed: e.lastAccess,
          expires: e.lastAccess + e.timeout * 1000,
        })),
      )
      expect(r.ds.entitySets.size).toBe(m.live.length)
      expect(r.ds.entitySets.members).toBe(total(m))
    }
    toString = () => 'info'
  }

  const commands = [
    fc
      .tuple(
        fc.oneof(
          keysArb(ROWS, 25),
          keysArb(ROWS, 60), // may pass MAX_MEMBERS alone: refused in both modes
        ),
        fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
      )
      .map(([keys, timeout]) => new Keep(keys, timeout)),
    fc.nat().map((p) => new Get(p)),
    fc.nat().map((p) => new Get(p)),
    fc.nat().map((p) => new Release(p)),
    fc
      .oneof(fc.integer({ min: 0, max: 60_000 }), fc.constant(DEFAULT_TIMEOUT * 1000 + 1))
      .map((ms) => new Advance(ms)),
    fc.integer({ min: 1, max: ROWS }).map((k) => new Drop(k)),
    fc.constant(new Info()),
  ]

  for (const whenFull of ['evict', 'refuse'] as const) {
    it(`keeps, finds, renews, expires, releases and ${whenFull}s as the model does`, () => {
      fc.assert(
        fc.property(fc.commands(commands, { maxCommands: 60 }), (cmds) => {
          const real = fresh(ROWS, {
            maxSets: MAX_SETS,
            maxMembers: MAX_MEMBERS,
            defaultTimeout: DEFAULT_TIMEOUT,
            whenFull,
          })
          const model: Model = {
            now: real.clock.now(),
            live: [],
            ids: [],
            deleted: new Set(),
            refuse: whenFull === 'refuse',
          }
          fc.modelRun(() => ({ model, real }), cmds)
          new Info().run(model, real)
        }),
        { numRuns: 150 },
      )
    })
  }
})

// A full garbage collection without --expose-gc: the flag set at run time, gc taken from a fresh
// context (as bench/timing.ts does). Undefined where that is refused: the heap is then not checked.
const fullGc = (() => {
  try {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    return () => {
      gc()
      gc()
    }
  } catch {
    return undefined
  }
})()

describe('entity sets: bounded memory', () => {
  it('5,000 sets of random sizes made and abandoned stay within maxSets and maxMembers', () => {
    const { ds, Item } = fresh(5000, { maxSets: 1000, maxMembers: 200_000 })
    const all = Item.all()
    let seed = 12345
    const random = (n: number) => {
      seed = (seed * 48271) % 2147483647
      return seed % n
    }
    // Typed arrays' contents (kept sets' members) live outside the JS heap: both are counted.
    const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers
    fullGc?.()
    const heapBefore = used()
    let largest = 0
    for (let i = 0; i < 5000; i++) {
      // Sizes 0 to 4,000 (2,000 on average): 10 million members made in all, 50 × maxMembers.
      const size = random(4001)
      const set = all.window(random(5000 - size + 1), size).keep({ timeout: 1 + random(7200) })
      expect(set.selection.length).toBe(size)
      const [sets, members] = [ds.entitySets.size, ds.entitySets.members]
      expect(sets).toBeLessThanOrEqual(1000)
      expect(members).toBeLessThanOrEqual(200_000)
      largest = Math.max(largest, members)
    }
    // The bound was reached (the test exercised eviction), not merely respected.
    expect(largest).toBeGreaterThan(190_000)
    if (fullGc) {
      fullGc()
      // What the sets may hold: 200,000 row ids (4 bytes each in an Int32Array) and 1,000 small
      // objects, ≈ 1 MB; were the abandoned sets kept, 10 million row ids would be ≈ 40 MB.
      const grownMb = (used() - heapBefore) / 2 ** 20
      expect(grownMb).toBeLessThan(24)
    }
  })

  it('with the default limits, sets are gone once 7,200 s pass without access', () => {
    const { ds, clock, Item } = fresh(1000)
    const all = Item.all()
    for (let i = 0; i < 500; i++) all.window(i, 100).keep()
    expect(ds.entitySets.size).toBe(500)
    clock.advance(7_200_000)
    expect(ds.entitySets.size).toBe(500)
    clock.advance(1)
    const last = all.window(0, 10).keep()
    expect(ds.entitySets.size).toBe(1)
    expect(ds.entitySets.members).toBe(10)
    expect(ds.entitySets.info().map((s) => s.id)).toEqual([last.id])
  })
})
