/**
 * Property test of pessimistic locks: random interleavings of three sessions and the process
 * locking, unlocking, updating, deleting and recreating entities while time moves, sessions log out
 * and expire (60 minutes without a request), checked step by step against a plain model:
 * - no write by another owner than the holder of a live lock ever changes an entity (its stamp and
 *   value are the model's), and every refusal is the one the model predicts (3, 5, 9070, 1542);
 * - a lock lasts exactly as long as its session: closed or expired, the session holds nothing and
 *   blocks no one, whether or not anything swept it.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../clock/clock.js'
import { DatastoreError } from '../../errors/datastore-error.js'
import type { LockOwner } from '../../locks/lock-table.js'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from '../objects/datastore.js'

const HOUR = 3_600_000
const KEYS = [1, 2, 3, 4]

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'n', type: 'long' },
      ],
    },
  ],
}

/** Actors 0–2 are sessions (a slot that opens a new session when its own is gone); 3 is the process. */
type Op =
  | { kind: 'lock' | 'unlock' | 'update' | 'delete' | 'create'; actor: number; key: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'logout'; actor: number }
  | { kind: 'atomic'; actor: number; keys: number[] }

const actor = fc.integer({ min: 0, max: 3 })
const key = fc.constantFrom(...KEYS)
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constantFrom('lock', 'unlock', 'update', 'delete', 'create'),
      actor,
      key,
    }) as fc.Arbitrary<Op>,
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('advance'),
      ms: fc.oneof(fc.integer({ min: 1, max: HOUR / 2 }), fc.constant(HOUR), fc.constant(HOUR - 1)),
    }) as fc.Arbitrary<Op>,
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('logout'),
      actor: fc.integer({ min: 0, max: 2 }),
    }) as fc.Arbitrary<Op>,
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('atomic'),
      actor,
      keys: fc.uniqueArray(key, { minLength: 1, maxLength: 3 }),
    }) as fc.Arbitrary<Op>,
  },
)

function run(ops: readonly Op[]): void {
  const clock = new ManualClock(Date.UTC(2026, 0, 1))
  const ds = createDatastore(MODEL, {
    data: { Item: KEYS.map((k) => ({ ID: k, n: 0 })) },
    clock,
  })
  const Item = ds.dataClass('Item')

  // The model: entities (key → n, stamp), sessions (slot → id, last request), locks (key → owner).
  const entities = new Map(KEYS.map((k) => [k, { n: 0, stamp: 1 }]))
  const slots: ({ owner: LockOwner; last: number } | undefined)[] = [
    undefined,
    undefined,
    undefined,
  ]
  const locks = new Map<number, string>()
  const ended: LockOwner[] = []
  const live = (id: string): boolean =>
    id === 'process' || slots.some((s) => s?.owner.id === id && clock.now() - s.last < HOUR)
  const holder = (k: number): string | undefined => {
    const h = locks.get(k)
    return h !== undefined && live(h) ? h : undefined
  }
  let counter = 0

  /** The owner of actor `a` for one request: its session touched, or a new one if it is gone. */
  const ownerOf = (a: number): LockOwner => {
    if (a === 3) return ds.processOwner
    const slot = slots[a]
    if (slot && ds.sessions.touch(slot.owner.id)) {
      slot.last = clock.now()
      return slot.owner
    }
    if (slot) ended.push(slot.owner)
    const owner: LockOwner = { id: ds.sessions.open().id, kind: 'session' }
    slots[a] = { owner, last: clock.now() }
    return owner
  }
  const errorName = (fn: () => void): string | undefined => {
    try {
      fn()
      return undefined
    } catch (e) {
      if (!DatastoreError.is(e)) throw e
      return e.name
    }
  }
  /** Why the model refuses a write of `k` by `id`, or undefined. */
  const refusal = (k: number, id: string): string | undefined => {
    if (!entities.has(k)) return 'EntityNotFound'
    const h = holder(k)
    return h !== undefined && h !== id ? 'EntityLocked' : undefined
  }

  for (const o of ops) {
    switch (o.kind) {
      case 'advance':
        clock.advance(o.ms)
        break
      case 'logout': {
        const slot = slots[o.actor]
        if (slot) {
          ds.sessions.close(slot.owner.id)
          ended.push(slot.owner)
          slots[o.actor] = undefined
        }
        break
      }
      case 'lock':
      case 'unlock': {
        const owner = ownerOf(o.actor)
        const e = Item.get(o.key)
        const result = e ? (o.kind === 'lock' ? e.lock({ owner }) : e.unlock({ owner })) : null
        const expected = !entities.has(o.key)
          ? undefined
          : holder(o.key) !== undefined && holder(o.key) !== owner.id
            ? 3
            : 0
        if (expected === undefined) expect(e).toBeNull()
        else if (expected === 3) expect(result).toMatchObject({ success: false, status: 3 })
        else {
          expect(result).toEqual({ success: true })
          if (o.kind === 'lock') locks.set(o.key, owner.id)
          else locks.delete(o.key)
        }
        break
      }
      case 'update': {
        const owner = ownerOf(o.actor)
        const n = ++counter
        const expected = refusal(o.key, owner.id)
        expect(errorName(() => Item.update(o.key, { n }, { owner }))).toBe(expected)
        if (!expected) {
          const m = entities.get(o.key)!
          m.n = n
          m.stamp++
        }
        break
      }
      case 'delete': {
        const owner = ownerOf(o.actor)
        const expected = refusal(o.key, owner.id)
        expect(errorName(() => ds.runAs(owner, () => Item.drop(o.key)))).toBe(expected)
        if (!expected) {
          entities.delete(o.key)
          locks.delete(o.key)
        }
        break
      }
      case 'create': {
        const owner = ownerOf(o.actor)
        const expected = entities.has(o.key) ? 'DuplicateKey' : undefined
        expect(errorName(() => ds.runAs(owner, () => Item.create({ ID: o.key, n: 0 })))).toBe(
          expected,
        )
        if (!expected) entities.set(o.key, { n: 0, stamp: 1 })
        break
      }
      case 'atomic': {
        // An atomic batch updates every key: one refusal cancels all.
        const owner = ownerOf(o.actor)
        const n = ++counter
        const expected = o.keys.map((k) => refusal(k, owner.id)).find((r) => r !== undefined)
        const got = errorName(() =>
          ds.runAs(owner, () => ds.transaction(() => o.keys.forEach((k) => Item.update(k, { n })))),
        )
        expect(got).toBe(expected)
        if (!expected) {
          for (const k of o.keys) {
            const m = entities.get(k)!
            m.n = n
            m.stamp++
          }
        }
        break
      }
    }
    // The datastore holds exactly the model's entities, each changed only by allowed writes.
    expect(
      Item.all()
        .toArray()
        .map((e) => [e.key, e.get('n'), e.stamp]),
    ).toEqual([...entities].sort((a, b) => a[0] - b[0]).map(([k, m]) => [k, m.n, m.stamp]))
    // A session the store closed (logout, or found expired by its next request) released its locks
    // at once, before anyone consulted them.
    for (const owner of ended) expect(ds.locks.heldBy(owner)).toEqual([])
    // The live locks are the model's; a session that expired unseen holds nothing either.
    const expectedLocks = KEYS.filter((k) => holder(k) !== undefined && entities.has(k)).map(
      (k) => [k, holder(k)],
    )
    expect(
      ds.locks
        .list()
        .map((l) => [l.key, l.owner.id])
        .sort((a, b) => (a[0] as number) - (b[0] as number)),
    ).toEqual(expectedLocks)
    for (const s of slots) {
      if (s && !live(s.owner.id)) expect(ds.locks.heldBy(s.owner)).toEqual([])
    }
    expect(ds.locks.size).toBe(expectedLocks.length)
  }
}

describe('pessimistic locks, against a model', () => {
  it('never let a non-owner change a locked entity, and end with their session', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 60 }), (ops) => run(ops)),
      { numRuns: 300 },
    )
  })

  it('a lock taken just before its session expires blocks until exactly 60 minutes', () => {
    run([
      { kind: 'lock', actor: 0, key: 1 },
      { kind: 'advance', ms: HOUR - 1 },
      { kind: 'update', actor: 1, key: 1 },
      { kind: 'advance', ms: 1 },
      { kind: 'update', actor: 1, key: 1 },
      { kind: 'lock', actor: 0, key: 1 },
      { kind: 'delete', actor: 1, key: 1 },
    ])
  })
})
