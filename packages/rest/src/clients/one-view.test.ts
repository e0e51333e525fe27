/**
 * Issue 61: every row a request reads is decided by one view, its session with the privileges in
 * force, whatever path reaches it. The notes application (notes-app.fixture.ts) writes its
 * `restrict` the 4D way, with `Session.hasPrivilege` and `Session.userName`; each test here is an
 * attack that broke before (breaks 1, 2 and 5 of the issue).
 */
import { describe, expect, it } from 'vitest'
import { SseReader } from '../resources/changes.fixture.js'
import type { HostileClient } from './hostile-app.fixture.js'
import { noteText, notesApp, OWNERS } from './notes-app.fixture.js'

/** The note texts of other owners than `name` in `text`: what `name` must never read. */
const othersIn = (text: string, name: string): string[] => {
  const found: string[] = []
  for (let id = 1; id <= 12; id++) {
    const owner = OWNERS[Math.floor((id - 1) / 3)]!
    if (owner !== name && text.includes(noteText(owner, id))) found.push(noteText(owner, id))
  }
  return found
}

const count = async (client: HostileClient, name: string): Promise<number> => {
  const answer = await client('/rest/Note')
  expect(answer.status).toBe(200)
  expect(othersIn(answer.text, name)).toEqual([])
  return answer.json.__COUNT as number
}

describe('a promoted call is a view of its own (break 1)', () => {
  it('does not widen the caller’s next request', async () => {
    const app = notesApp()
    const ann = await app.client('ann')
    expect(await count(ann, 'ann')).toBe(3)
    // Promoted to admin: its code reads every note.
    expect((await ann('/rest/Note/everyone', [])).json).toEqual({ result: 12 })
    // The session's next request is ann's own again, at the same data version.
    expect(await count(ann, 'ann')).toBe(3)
  })

  it('gets the promoted answer right after a plain read at the same data version', async () => {
    const app = notesApp()
    const ann = await app.client('ann')
    expect(await count(ann, 'ann')).toBe(3)
    expect((await ann('/rest/Note/everyone', [])).json).toEqual({ result: 12 })
  })

  it('lends nothing to the requests of its session while it awaits', async () => {
    const app = notesApp()
    const ann = await app.client('ann')
    const later = ann('/rest/Note/everyoneLater', [])
    const meanwhile = await Promise.all(Array.from({ length: 21 }, () => count(ann, 'ann')))
    expect(meanwhile).toEqual(Array(21).fill(3))
    app.open()
    expect((await later).json).toEqual({ result: [12, 12] })
    expect(await count(ann, 'ann')).toBe(3)
  })

  it('one answer serves every session of one view, not one a session', async () => {
    const app = notesApp()
    const sessions = await Promise.all(Array.from({ length: 20 }, () => app.client('ann')))
    const before = app.runs()
    for (const ann of sessions) expect(await count(ann, 'ann')).toBe(3)
    // Twenty sessions of ann, one view: one run of the restrict.
    expect(app.runs() - before).toBe(1)
    const bob = await app.client('bob')
    expect(await count(bob, 'bob')).toBe(3)
    expect(app.runs() - before).toBe(2)
  })
})

const deletedKeys = async (client: HostileClient): Promise<string[]> => {
  const answer = await client('/rest/__DeletedRecords?$attributes=__PrimaryKey,__Stamp')
  expect(answer.status).toBe(200)
  return (answer.json.__ENTITIES as { __PrimaryKey: string }[]).map((e) => e.__PrimaryKey)
}

describe('deletions are witnessed per reader and per deletion (break 2)', () => {
  it('a reader learns of no deletion of a note it could not see, whoever deleted it', async () => {
    const app = notesApp()
    const ann = await app.client('ann')
    const root = await app.client('root')
    expect(await count(ann, 'ann')).toBe(3)
    // An admin deletes bob's note 4 and ann's note 2: decided as ann, she saw only the second.
    expect((await root('/rest/Note(4)?$method=delete', {})).status).toBe(200)
    expect((await root('/rest/Note(2)?$method=delete', {})).status).toBe(200)
    expect(await deletedKeys(ann)).toEqual(['2'])
    expect((await deletedKeys(root)).sort()).toEqual(['2', '4'])
  })

  it('nor in its live feed', async () => {
    const app = notesApp()
    const ann = await app.client('ann')
    const root = await app.client('root')
    expect(await count(ann, 'ann')).toBe(3)
    const res = await app.rest.request('/rest/Note/$changes', {
      headers: { cookie: ann.cookie()! },
    })
    expect(res.status).toBe(200)
    const feed = new SseReader(res.body!)
    expect(await feed.next()).toEqual({ retry: '3000' })
    for (const id of [4, 2, 10, 3])
      expect((await root(`/rest/Note(${id})?$method=delete`, {})).status).toBe(200)
    const events = await feed.take(2)
    expect(events.map((e) => [e.event, e.data.__KEY])).toEqual([
      ['deleted', '2'],
      ['deleted', '3'],
    ])
    await feed.cancel()
  })

  it('a key deleted, made again hidden, and deleted again is two deletions', async () => {
    const app = notesApp()
    const ann = await app.client('ann')
    const root = await app.client('root')
    expect(await count(ann, 'ann')).toBe(3)
    expect((await root('/rest/Note(1)?$method=delete', {})).status).toBe(200)
    // Note 1 again, bob's this time: ann cannot see it.
    // (From TypeScript: a client may not choose a restricted dataclass's generated key.)
    app.ds.dataClass('Note').create({ ID: 1, owner: 'bob', text: 'x' })
    expect(await count(ann, 'ann')).toBe(2)
    expect((await root('/rest/Note(1)?$method=delete', {})).status).toBe(200)
    // Ann learns of the first deletion only.
    expect(await deletedKeys(ann)).toEqual(['1'])
    expect(await deletedKeys(root)).toEqual(['1', '1'])
  })

  it('a deletion costs one restrict answer per view among the readers, not per row and session', async () => {
    const app = notesApp({}, 60)
    const readers = await Promise.all(Array.from({ length: 99 }, () => app.client('ann')))
    for (const ann of readers) await ann('/rest/Note')
    const root = await app.client('root')
    const before = app.runs()
    // 25 notes of 5 owners' in one request.
    const dropped = await root('/rest/Note?$filter="ID<=25"&$method=delete', {})
    expect(dropped.status).toBe(200)
    // root's own view answers the drop; ann's one view answers for 99 sessions.
    expect(app.runs() - before).toBeLessThanOrEqual(2)
    const seen = await deletedKeys(readers[42]!)
    // ann owns notes 1-3, 13-15 and 25 of the first 25 (every fourth group of three).
    expect(seen.sort()).toEqual(['1', '13', '14', '15', '2', '25', '3'])
  })
})

describe('live feeds are bounded per session and per user (break 5)', () => {
  const feed = async (app: ReturnType<typeof notesApp>, client: HostileClient) => {
    const res = await app.rest.request('/rest/Note/$changes', {
      headers: { cookie: client.cookie()! },
    })
    if (res.status !== 200) return { status: res.status, body: (await res.json()) as any }
    return { status: 200, reader: new SseReader(res.body!) }
  }

  it('99 sessions of one reader following one feed cost one restrict answer a write', async () => {
    const app = notesApp()
    const sessions = await Promise.all(Array.from({ length: 99 }, () => app.client('ann')))
    const feeds = await Promise.all(sessions.map((ann) => feed(app, ann)))
    for (const f of feeds) expect(await f.reader!.next()).toEqual({ retry: '3000' })
    const root = await app.client('root')
    const before = app.runs()
    const changed = await root('/rest/Note?$method=update', { __KEY: '1', text: 'again' })
    expect(changed.status).toBe(200)
    const events = await Promise.all(feeds.map((f) => f.reader!.take(1)))
    expect(events.map(([e]) => [e!.event, e!.data.__KEY])).toEqual(Array(99).fill(['updated', '1']))
    // One for the 99 subscribers' one view (root's own update may ask its own).
    expect(app.runs() - before).toBeLessThanOrEqual(2)
    await Promise.all(feeds.map((f) => f.reader!.cancel()))
  })

  it('refuses one feed more, 429 9063, until one closes', async () => {
    const app = notesApp({}, 12, { maxSubscriptionsPerSession: 2, maxSubscriptionsPerUser: 3 })
    const [a, b] = [await app.client('ann'), await app.client('ann')]
    const first = await feed(app, a)
    expect((await feed(app, a)).status).toBe(200)
    const past = await feed(app, a)
    expect(past.status).toBe(429)
    expect(past.body.__ERROR[0]).toMatchObject({ errCode: 9063 })
    expect(past.body.__ERROR[0].message).toContain('maxSubscriptionsPerSession')
    // Another session of ann: the user's third, then her bound.
    expect((await feed(app, b)).status).toBe(200)
    const user = await feed(app, b)
    expect(user.status).toBe(429)
    expect(user.body.__ERROR[0].message).toContain('maxSubscriptionsPerUser')
    // Another user is not counted with ann.
    expect((await feed(app, await app.client('bob'))).status).toBe(200)
    await first.reader!.cancel()
    await expect.poll(async () => (await feed(app, b)).status).toBe(200)
  })
})
