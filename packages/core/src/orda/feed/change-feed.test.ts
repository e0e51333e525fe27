import { describe, expect, it } from 'vitest'
import { DatastoreError } from '../../errors/datastore-error.js'
import type { Session } from '../../sessions/session-api.js'
import type { ChangeEvent } from './change-feed.js'
import { FeedReader, feedModel, feedStore } from './change-feed.fixture.js'
import { createDatastore } from '../objects/datastore.js'

const brief = (events: readonly ChangeEvent[]) =>
  events.map((e) =>
    'key' in e
      ? `${e.type}${'left' in e && e.left ? '(left)' : ''} ${e.dataClass}(${String(e.key)})@${e.stamp}`
      : `${e.type}@${e.stamp}`,
  )

const employees = () => ({
  Employee: [
    { ID: 1, lastName: 'Lovelace', salary: 5000, public: true, employerID: 1 },
    { ID: 2, lastName: 'Turing', salary: 6000, public: false, employerID: 1 },
  ],
  Company: [{ ID: 1, name: 'Acme' }],
})

describe('ds.changes: what a subscriber is sent', () => {
  it('sends the changes after it subscribed, in stamp order, the entity as it is when sent', async () => {
    const { ds } = feedStore({ data: employees() })
    const feed = new FeedReader(ds.changes({ dataClasses: ['Employee'] }))
    const E = ds.dataClass('Employee')
    E.create({ ID: 3, lastName: 'Hopper', salary: 7000 })
    const first = await feed.drain()
    expect(first).toEqual([
      {
        type: 'created',
        stamp: 1,
        dataClass: 'Employee',
        key: 3,
        entity: { ID: 3, lastName: 'Hopper', salary: 7000, public: null, employerID: null },
      },
    ])
    ds.dataClass('Company').create({ name: 'Globex' }) // not followed
    E.update(1, { salary: 5500 })
    E.drop(2)
    expect(brief(await feed.drain())).toEqual(['updated Employee(1)@3', 'deleted Employee(2)@4'])
    expect(feed.sub.position).toBe(4)
  })

  it('coalesces: an entity changed several times is sent once, as it is last; a delete is kept', async () => {
    const { ds } = feedStore({ data: employees() })
    const feed = new FeedReader(ds.changes({ dataClasses: 'Employee', attributes: ['salary'] }))
    const E = ds.dataClass('Employee')
    E.update(1, { salary: 1 })
    E.update(1, { salary: 2 })
    E.create({ ID: 9, salary: 3 })
    E.drop(9)
    E.update(1, { salary: 4 })
    const events = await feed.drain()
    expect(brief(events)).toEqual(['deleted Employee(9)@4', 'updated Employee(1)@5'])
    expect(events[1]).toMatchObject({ entity: { salary: 4 } })
  })

  it('resumes from a stamp the history holds: the changes after it, none twice', async () => {
    const { ds } = feedStore({ data: employees() })
    const E = ds.dataClass('Employee')
    E.update(1, { salary: 1 })
    const mark = ds.globalStamp
    E.update(2, { salary: 2 })
    E.create({ ID: 5, salary: 3 })
    const feed = new FeedReader(ds.changes({ dataClasses: 'Employee', since: mark }))
    expect(brief(await feed.drain())).toEqual(['updated Employee(2)@2', 'created Employee(5)@3'])
  })

  it('sends a reset when the history no longer reaches the stamp, or never gave it', async () => {
    const { ds } = feedStore({ data: employees(), changeHistory: { size: 2 } })
    const E = ds.dataClass('Employee')
    for (let i = 0; i < 5; i++) E.update(1, { salary: i })
    const old = new FeedReader(ds.changes({ dataClasses: 'Employee', since: 1 }))
    expect(brief(await old.drain())).toEqual(['reset@5'])
    const future = new FeedReader(ds.changes({ dataClasses: 'Employee', since: 99 }))
    expect(brief(await future.drain())).toEqual(['reset@5'])
    // At the floor itself: lossless.
    const edge = new FeedReader(ds.changes({ dataClasses: 'Employee', since: 3 }))
    expect(brief(await edge.drain())).toEqual(['updated Employee(1)@5'])
  })

  it('a load or a restore resets every subscriber, who then goes on from the new stamp', async () => {
    const { ds } = feedStore({ data: employees() })
    const snap = ds.snapshot()
    const feed = new FeedReader(ds.changes({ dataClasses: 'Employee' }))
    ds.dataClass('Employee').update(1, { salary: 1 })
    ds.restore(snap)
    expect(brief(await feed.drain())).toEqual(['reset@0'])
    ds.dataClass('Employee').update(2, { salary: 2 })
    expect(brief(await feed.drain())).toEqual(['updated Employee(2)@1'])
  })

  it('an idle subscriber never falls out of a history that other dataclasses fill', async () => {
    const { ds } = feedStore({ data: employees(), changeHistory: { size: 3 } })
    const feed = new FeedReader(ds.changes({ dataClasses: 'Employee' }))
    await feed.drain()
    for (let i = 0; i < 10; i++) ds.dataClass('Company').create({ name: `C${i}` })
    ds.dataClass('Employee').update(1, { salary: 1 })
    expect(brief(await feed.drain())).toEqual(['updated Employee(1)@11'])
  })

  it('checks its options: unknown dataclass 1800, a filter over two dataclasses 1806, a bad filter', () => {
    const { ds } = feedStore()
    const code = (fn: () => unknown) => {
      try {
        fn()
      } catch (e) {
        return DatastoreError.is(e) ? e.errCode : -1
      }
      return 0
    }
    expect(code(() => ds.changes({ dataClasses: 'Nope' }))).toBe(1800)
    expect(code(() => ds.changes({ dataClasses: ['Employee', 'Company'], filter: 'ID > 1' }))).toBe(
      1806,
    )
    expect(code(() => ds.changes({ dataClasses: 'Employee', filter: 'nope > 1' }))).toBe(1500)
    expect(code(() => ds.changes({ dataClasses: 'Employee', filter: 'salary >' }))).toBeGreaterThan(
      0,
    )
    expect(code(() => ds.changes({ dataClasses: 'Employee', since: -1 }))).toBe(1806)
  })

  it('close() ends a pending read and unregisters the subscriber', async () => {
    const { ds } = feedStore({ data: employees() })
    const sub = ds.changes({ dataClasses: 'Employee', heartbeatMs: 1000 })
    expect(ds.changeFeed.size).toBe(1)
    const pending = sub.next()
    sub.close()
    expect(await pending).toEqual({ done: true, value: undefined })
    expect(ds.changeFeed.size).toBe(0)
    // A `for await` that breaks closes it too.
    const other = ds.changes({ dataClasses: 'Employee' })
    ds.dataClass('Employee').update(1, { salary: 1 })
    for await (const _ of other) break
    expect(other.closed).toBe(true)
    expect(ds.changeFeed.size).toBe(0)
  })
})

describe('ds.changes: filters', () => {
  it('sends what matches; an entity that stops matching leaves once; one that matches again comes back', async () => {
    const { ds } = feedStore({ data: employees() })
    const E = ds.dataClass('Employee')
    const feed = new FeedReader(
      ds.changes({
        dataClasses: 'Employee',
        filter: 'salary > :1',
        parameters: [5500],
        attributes: ['salary'],
      }),
    )
    E.update(1, { salary: 5000 }) // never matched: the subscriber may hold it from a pull, so it leaves
    E.update(2, { salary: 6500 })
    expect(brief(await feed.drain())).toEqual([
      'deleted(left) Employee(1)@1',
      'updated Employee(2)@2',
    ])
    E.update(1, { salary: 4000 }) // known not held: nothing
    E.update(2, { salary: 100 })
    expect(brief(await feed.drain())).toEqual(['deleted(left) Employee(2)@4'])
    E.drop(2) // known not held: nothing
    E.update(1, { salary: 9000 })
    expect(brief(await feed.drain())).toEqual(['updated Employee(1)@6'])
  })

  it('tests a filter through a relation against the data when sent', async () => {
    const { ds } = feedStore({ data: employees() })
    const feed = new FeedReader(
      ds.changes({ dataClasses: 'Employee', filter: 'employer.name = "Globex"' }),
    )
    ds.dataClass('Company').update(1, { name: 'Globex' })
    ds.dataClass('Employee').update(1, { salary: 1 })
    expect(brief(await feed.drain())).toEqual(['updated Employee(1)@2'])
  })
})

describe('ds.changes: privileges and restrict, when each event is sent', () => {
  const secured = () => {
    const setup = feedStore({
      data: employees(),
      functions: {
        dataClasses: {
          Employee: {
            // Sessions see the public employees; code outside one sees all.
            restrict({ session }: { session?: Session }) {
              return session === undefined ? null : this.query('public = true')
            },
          },
        },
      },
    })
    const { ds } = setup
    const session = (who: string): Session => {
      const s = ds.sessions.open()
      s.data.set('who', who)
      return s
    }
    // "nobody" may not read Employee; "clerk" may read it, but not its salary.
    const authorize = (
      s: Session,
      action: string,
      target: { dataClass: string; attribute?: string },
    ) =>
      !(target.dataClass === 'Employee' && action === 'read' && s.data.get('who') === 'nobody') &&
      !(target.attribute === 'salary' && s.data.get('who') === 'clerk')
    return { ...setup, session, authorize }
  }

  it('a computed attribute whose getter reads what the session may not is left out; the event is sent', async () => {
    const base = feedModel()
    const [employee, ...others] = base.dataClasses
    const model = {
      ...base,
      dataClasses: [
        {
          ...employee!,
          attributes: [
            ...employee!.attributes,
            { name: 'yearly', kind: 'calculated' as const, type: 'number' as const },
          ],
        },
        ...others,
      ],
    }
    const ds = createDatastore(model, {
      data: employees(),
      functions: {
        dataClasses: {
          Employee: {
            computed: {
              yearly: {
                get() {
                  return (this.get('salary') as number) * 12
                },
              },
            },
          },
        },
      },
    })
    const feed = new FeedReader(
      ds.changes({
        dataClasses: 'Employee',
        session: ds.sessions.open(),
        authorize: (_s, _action, target) => target.attribute !== 'salary',
      }),
    )
    ds.dataClass('Employee').update(1, { lastName: 'Byron' })
    const [event] = await feed.drain()
    expect(event).toMatchObject({ type: 'updated', key: 1, entity: { lastName: 'Byron' } })
    expect((event as { entity: object }).entity).not.toHaveProperty('yearly')
    expect((event as { entity: object }).entity).not.toHaveProperty('salary')
  })

  it('a session that may not read the dataclass is refused at once (1557)', () => {
    const { ds, session, authorize } = secured()
    expect(() =>
      ds.changes({ dataClasses: 'Employee', session: session('nobody'), authorize }),
    ).toThrow(expect.objectContaining({ errCode: 1557 }))
  })

  it('a session that loses its read privilege gets nothing more, deletions included', async () => {
    const { ds, session, authorize } = secured()
    const s = session('ann')
    const feed = new FeedReader(ds.changes({ dataClasses: 'Employee', session: s, authorize }))
    s.data.set('who', 'nobody')
    ds.dataClass('Employee').update(1, { salary: 1 })
    ds.dataClass('Employee').drop(1)
    expect(await feed.drain()).toEqual([])
  })

  it('a session that ends (logout, expiry) ends its subscriptions: none outlives its rights', async () => {
    const { ds, session, authorize } = secured()
    const s = session('ann')
    const other = ds.changes({ dataClasses: 'Employee', session: session('bob'), authorize })
    const sub = ds.changes({ dataClasses: 'Employee', session: s, authorize })
    const pending = sub.next()
    ds.sessions.close(s.id)
    expect(await pending).toEqual({ done: true, value: undefined })
    expect(sub.closed).toBe(true)
    expect(other.closed).toBe(false)
    other.close()
    expect(ds.changeFeed.size).toBe(0)
  })

  it('restrict hides entities; one that becomes hidden leaves, once it was sent; attributes it may not read are left out', async () => {
    const { ds, session, authorize } = secured()
    const E = ds.dataClass('Employee')
    const feed = new FeedReader(
      ds.changes({ dataClasses: 'Employee', session: session('clerk'), authorize }),
    )
    E.update(2, { lastName: 'T.' }) // hidden: nothing, not even a left
    E.update(1, { lastName: 'L.' })
    const sent = await feed.drain()
    expect(brief(sent)).toEqual(['updated Employee(1)@2'])
    expect(sent[0]).toMatchObject({ entity: { ID: 1, lastName: 'L.' } })
    expect((sent[0] as { entity: object }).entity).not.toHaveProperty('salary')
    E.update(1, { public: false })
    E.update(2, { lastName: 'Tu' })
    expect(brief(await feed.drain())).toEqual(['deleted(left) Employee(1)@3'])
  })

  it('a deletion from a restricted dataclass goes only to a session that could see the entity', async () => {
    const { ds, session, authorize } = secured()
    const E = ds.dataClass('Employee')
    const s = session('ann')
    // The witnesses of a deletion are the sessions that read the dataclass (deletion-witnesses.ts).
    ds.actAs(s, () => E.all().length, { authorize })
    const feed = new FeedReader(ds.changes({ dataClasses: 'Employee', session: s, authorize }))
    E.drop(2) // hidden from ann
    E.drop(1)
    expect(brief(await feed.drain())).toEqual(['deleted Employee(1)@2'])
  })
})

describe('ds.changes: bounds', () => {
  it('bounds the feeds of a session, of a user, of the sessions without a user and of all (9063)', () => {
    const { ds } = feedStore({
      data: employees(),
      changeHistory: {
        maxSubscriptionsPerSession: 2,
        maxSubscriptionsPerUser: 3,
        maxGuestSubscriptions: 2,
        maxSubscriptions: 6,
      },
    })
    const follow = (session?: Session) => () => ds.changes({ dataClasses: 'Employee', session })
    const refusal = (fn: () => unknown): string => {
      try {
        fn()
      } catch (e) {
        if (DatastoreError.is(e) && e.errCode === 9063) return e.message
        throw e
      }
      return 'opened'
    }
    const as = (name?: string) => {
      const session = ds.sessions.open()
      if (name !== undefined) ds.sessions.renew(session.id, { user: { name } })
      return session
    }
    const [ann1, ann2, guest1, guest2] = [as('ann'), as('Ann'), as(), as()]
    follow(ann1)()
    follow(ann1)()
    expect(refusal(follow(ann1))).toContain('maxSubscriptionsPerSession')
    follow(ann2)()
    // Ann and ann are one user.
    expect(refusal(follow(ann2))).toContain('maxSubscriptionsPerUser')
    follow(guest1)()
    expect(refusal(follow(guest2))).toBe('opened')
    expect(refusal(follow(as()))).toContain('maxGuestSubscriptions')
    // Bob is neither ann nor a guest: he may, until the server's bound.
    expect(refusal(follow(as('bob')))).toBe('opened')
    expect(refusal(follow(as('cid')))).toContain('maxSubscriptions)')
  })

  it('drops a subscriber that falls bufferLimit events behind, with the stamp to resume from', async () => {
    const { ds } = feedStore({ data: employees() })
    const E = ds.dataClass('Employee')
    const sub = ds.changes({ dataClasses: 'Employee', bufferLimit: 3 })
    const feed = new FeedReader(sub)
    E.update(1, { salary: 1 })
    expect(brief(await feed.drain())).toEqual(['updated Employee(1)@1'])
    // It reads nothing while four more come: dropped at once, holding nothing.
    for (let i = 0; i < 4; i++) E.create({ salary: i })
    expect(ds.changeFeed.size).toBe(0)
    expect(brief(await feed.drain())).toEqual(['dropped@1'])
    expect(feed.done).toBe(true)
    // Resuming from there misses nothing.
    const again = new FeedReader(ds.changes({ dataClasses: 'Employee', since: 1 }))
    expect((await again.drain()).map((e) => e.stamp)).toEqual([2, 3, 4, 5])
  })

  it('keeps a reset not read yet when it falls bufferLimit behind: its reader pulls, never resumes', async () => {
    const { ds } = feedStore({ data: employees(), changeHistory: { size: 2 } })
    const E = ds.dataClass('Employee')
    for (let i = 0; i < 3; i++) E.create({ salary: i })
    // Since 0: under the history's floor, so a reset at 3 waits for its reader.
    const feed = new FeedReader(ds.changes({ dataClasses: 'Employee', since: 0, bufferLimit: 1 }))
    // Then more than bufferLimit events before it reads: a drop would say "resume from 3", with
    // data the reader never pulled.
    for (let i = 0; i < 3; i++) E.create({ salary: i })
    const events = await feed.drain()
    expect(brief(events)[0]).toBe('reset@3')
    expect(events.map((e) => e.type)).not.toContain('dropped')
  })

  it('sends a heartbeat on the clock when nothing was sent for heartbeatMs, at the stamp it is at', async () => {
    const { ds, clock, timer } = feedStore({ data: employees() })
    const feed = new FeedReader(ds.changes({ dataClasses: 'Employee', heartbeatMs: 15_000 }))
    expect(await feed.drain()).toEqual([])
    ds.dataClass('Company').create({ name: 'X' })
    clock.advance(14_999)
    timer.fire()
    expect(await feed.drain()).toEqual([])
    clock.advance(1)
    timer.fire()
    expect(await feed.drain()).toEqual([{ type: 'heartbeat', stamp: 1 }])
    clock.advance(15_000)
    timer.fire()
    expect(brief(await feed.drain())).toEqual(['heartbeat@1'])
    feed.sub.close()
    expect(timer.pending).toBe(0)
  })
})
