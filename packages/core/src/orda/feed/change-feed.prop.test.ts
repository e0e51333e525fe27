/**
 * Model-based: random writes, deletes, subscriptions (now, or from a past stamp), reads and
 * reconnects, with a small history and small buffers so that resets and drops happen. Every
 * subscriber applies its events to the data as it was at its resume point (or at a reset's stamp,
 * after a pull) and must then hold exactly the data as it is, filtered as it asked: nothing missed;
 * stamps strictly increase (nothing twice); within one read, an entity is sent at most once as
 * created or updated (coalesced).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ChangeEvent } from './change-feed.js'
import { FeedReader, feedStore } from './change-feed.fixture.js'

type Data = Map<number, number> // key → salary
const LIMIT = 50 // the filter: salary > LIMIT

interface Sub {
  reader: FeedReader<Record<string, unknown>>
  filtered: boolean
  view: Data
  last: number
}

interface Real {
  ds: ReturnType<typeof feedStore>['ds']
  subs: Sub[]
  // The data after each global stamp.
  at: Map<number, Data>
}

const salaryOf = (ds: Real['ds'], key: number): number =>
  ds.dataClass('Employee').get(key)!.get('salary') as number

function current(ds: Real['ds']): Data {
  const out: Data = new Map()
  for (const e of ds.dataClass('Employee').all().toArray())
    out.set(e.getKey() as number, e.get('salary') as number)
  return out
}

const shown = (data: Data, filtered: boolean): Data =>
  new Map([...data].filter(([, salary]) => !filtered || salary > LIMIT))

function note(r: Real): void {
  r.at.set(r.ds.globalStamp, current(r.ds))
}

function subscribe(
  r: Real,
  since: number | undefined,
  filtered: boolean,
  bufferLimit: number,
  held?: Data,
): void {
  const from = since ?? r.ds.globalStamp
  const sub = r.ds.changes({
    dataClasses: 'Employee',
    since: from,
    bufferLimit,
    ...(filtered ? { filter: 'salary > :1', parameters: [LIMIT] } : {}),
  })
  const view = held ?? shown(r.at.get(from)!, filtered)
  r.subs.push({ reader: new FeedReader(sub), filtered, view, last: from })
}

async function read(r: Real, s: Sub): Promise<void> {
  const events: ChangeEvent[] = await s.reader.drain()
  const sentOnce = new Set<unknown>()
  for (const e of events) {
    expect(e.stamp).toBeGreaterThanOrEqual(s.last)
    if (e.type !== 'heartbeat' && e.type !== 'reset' && e.type !== 'dropped')
      expect(e.stamp).toBeGreaterThan(s.last)
    s.last = e.stamp
    switch (e.type) {
      case 'created':
      case 'updated':
        expect(sentOnce.has(e.key)).toBe(false)
        // The first event of a read may have been decided before it (a read waiting when the
        // write came): the entity may have changed since, and is then sent again.
        if (e !== events[0]) sentOnce.add(e.key)
        s.view.set(e.key as number, e.entity.salary as number)
        break
      case 'deleted':
        s.view.delete(e.key as number)
        break
      case 'reset':
        // The subscriber pulls again: the data as it is at the reset's stamp.
        s.view = shown(r.at.get(e.stamp)!, s.filtered)
        sentOnce.clear()
        break
      case 'dropped': {
        // A reconnect from the resume point, keeping what it holds.
        r.subs.splice(r.subs.indexOf(s), 1)
        subscribe(r, e.stamp, s.filtered, 4, s.view)
        return
      }
    }
  }
  if (!s.reader.done) expect(s.view).toEqual(shown(current(r.ds), s.filtered))
}

type Cmd = (r: Real) => Promise<void> | void

const commands = [
  fc.integer({ min: 0, max: 100 }).map<Cmd>((salary) => (r) => {
    r.ds.dataClass('Employee').create({ salary })
    note(r)
  }),
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 100 })).map<Cmd>(([i, salary]) => (r) => {
    const keys = [...current(r.ds).keys()]
    if (keys.length === 0) return
    const key = keys[i % keys.length]!
    if (salaryOf(r.ds, key) === salary) return
    r.ds.dataClass('Employee').update(key, { salary })
    note(r)
  }),
  fc.nat().map<Cmd>((i) => (r) => {
    const keys = [...current(r.ds).keys()]
    if (keys.length === 0) return
    r.ds.dataClass('Employee').drop(keys[i % keys.length]!)
    note(r)
  }),
  fc.tuple(fc.nat(), fc.integer({ min: 2, max: 6 })).map<Cmd>(([many, n]) => (r) => {
    // Several changes in one commit: deletes take the first stamps.
    const keys = [...current(r.ds).keys()]
    r.ds.transaction(() => {
      for (let i = 0; i < n; i++) {
        if (i % 3 === 2 && keys.length > 0) {
          const key = keys.splice(many % keys.length, 1)[0]!
          r.ds.dataClass('Employee').drop(key)
        } else r.ds.dataClass('Employee').create({ salary: (many + i * 37) % 101 })
      }
    })
    note(r)
  }),
  fc
    .tuple(fc.option(fc.nat()), fc.boolean(), fc.integer({ min: 2, max: 12 }))
    .map<Cmd>(([back, filtered, limit]) => (r) => {
      // A stamp between two commits: one a client could have pulled at.
      const stamps = [...r.at.keys()]
      const since = back === null ? undefined : stamps[Math.max(0, stamps.length - 1 - (back % 8))]
      subscribe(r, since, filtered, limit)
    }),
  fc.nat().map<Cmd>((i) => async (r) => {
    if (r.subs.length > 0) await read(r, r.subs[i % r.subs.length]!)
  }),
]

describe('ds.changes (model-based)', () => {
  it('every subscriber ends up holding the data, filtered, from any resume point', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(...commands), { maxLength: 60 }),
        fc.integer({ min: 4, max: 40 }),
        async (cmds, size) => {
          const { ds } = feedStore({
            data: {
              Employee: [
                { ID: 1, salary: 10 },
                { ID: 2, salary: 90 },
              ],
            },
            changeHistory: { size },
          })
          const r: Real = { ds, subs: [], at: new Map() }
          note(r)
          for (const cmd of cmds) await cmd(r)
          for (const s of [...r.subs]) await read(r, s)
          for (const s of r.subs) s.reader.sub.close()
          expect(ds.changeFeed.size).toBe(0)
        },
      ),
      { numRuns: 150 },
    )
  })
})
