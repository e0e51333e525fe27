import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'
import { serveOnSocket } from '../node/serve.fixture.js'
import { feedDatastore, SseReader, turnsUntil } from './changes.fixture.js'

const open = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
  expect(res.headers.get('cache-control')).toBe('no-cache')
  return new SseReader(res.body!)
}

describe('GET /rest/$changes over node:http', () => {
  it('streams each change as an event: id the global stamp, the entity as REST writes it', async () => {
    const { ds } = feedDatastore()
    const { base } = await serveOnSocket(ds)
    const feed = await open(`${base}/rest/$changes?$dataClasses=Employee,Company`)
    expect(await feed.next()).toEqual({ retry: '3000' })
    const E = ds.dataClass('Employee')
    E.update(1, { salary: 5100 })
    ds.dataClass('Company').create({ name: 'Globex' })
    E.drop(2)
    const events = await feed.take(3)
    expect(events.map((e) => [e.id, e.event])).toEqual([
      ['1', 'updated'],
      ['2', 'created'],
      ['3', 'deleted'],
    ])
    expect(events[0]!.data).toMatchObject({
      __GlobalStamp: 1,
      __entityModel: 'Employee',
      __KEY: '1',
      salary: 5100,
    })
    // Not exposed: never written.
    expect(events[0]!.data).not.toHaveProperty('secret')
    expect(events[2]!.data).toEqual({ __entityModel: 'Employee', __KEY: '2', __GlobalStamp: 3 })
    await feed.cancel()
  })

  it('resumes after Last-Event-ID (over $since): nothing missed, nothing twice', async () => {
    const { ds } = feedDatastore()
    const { base } = await serveOnSocket(ds)
    const url = `${base}/rest/Employee/$changes?$attributes=salary&$since=0`
    const first = await open(url)
    const E = ds.dataClass('Employee')
    E.update(1, { salary: 1 })
    const [one] = await first.take(1)
    expect(one!.id).toBe('1')
    await first.cancel()
    await turnsUntil(() => ds.changeFeed.size === 0, 'the first subscription closed')
    // Written while the client was away.
    E.update(2, { salary: 2 })
    E.create({ salary: 3 })
    const again = await open(url, { 'last-event-id': one!.id! })
    const events = await again.take(2)
    expect(events.map((e) => [e.id, e.event, e.data.salary])).toEqual([
      ['2', 'updated', 2],
      ['3', 'created', 3],
    ])
    expect(Object.keys(events[0]!.data)).toEqual(
      expect.arrayContaining(['__GlobalStamp', '__KEY', 'salary']),
    )
    expect(events[0]!.data).not.toHaveProperty('lastName')
    await again.cancel()
  })

  it('a filter sends what matches and a left for what stops matching', async () => {
    const { ds } = feedDatastore()
    const { base } = await serveOnSocket(ds)
    const feed = await open(`${base}/rest/Employee/$changes?$filter="salary>:1"&$params=[5500]`)
    const E = ds.dataClass('Employee')
    E.update(1, { salary: 9000 })
    E.update(2, { salary: 10 })
    const events = await feed.take(2)
    expect(events.map((e) => [e.event, e.data.__KEY, e.data.left])).toEqual([
      ['updated', '1', undefined],
      ['deleted', '2', true],
    ])
    await feed.cancel()
  })

  it('sends a reset for a stamp the history no longer holds, and a heartbeat when idle', async () => {
    const { ds, clock, timer } = feedDatastore()
    const { base } = await serveOnSocket(ds)
    const feed = await open(`${base}/rest/Employee/$changes?$since=99`)
    const [reset] = await feed.take(1)
    expect(reset).toEqual({ id: '0', event: 'reset', data: { __GlobalStamp: 0 } })
    await timer.until(1)
    clock.advance(15_000)
    timer.fireAll()
    const [beat] = await feed.take(1)
    expect(beat).toEqual({ id: '0', event: 'heartbeat', data: { __GlobalStamp: 0 } })
    await feed.cancel()
  })

  it('refuses before streaming, with the usual __ERROR replies', async () => {
    const { ds } = feedDatastore()
    const authorize = (_s: unknown, action: string, target: { dataClass: string }) =>
      !(action === 'read' && target.dataClass === 'Company')
    const { base } = await serveOnSocket(ds, { authorize })
    const status = async (path: string) => {
      const res = await fetch(`${base}${path}`)
      const body = (await res.json()) as { __ERROR: { errCode: number }[] }
      return [res.status, body.__ERROR[0]!.errCode]
    }
    expect(await status('/rest/Nope/$changes')).toEqual([404, 1800])
    expect(await status('/rest/$changes?$dataClasses=Employee,Nope')).toEqual([404, 1800])
    expect(await status('/rest/Employee/$changes?$filter="salary>"')).toEqual([400, 9001])
    expect(await status('/rest/Employee/$changes?$filter="nope=1"')).toEqual([404, 1500])
    expect(await status('/rest/Employee/$changes?$attributes=secret')).toEqual([404, 1500])
    expect(await status('/rest/Company/$changes')).toEqual([403, 1557])
    expect(await status('/rest/$changes')).toEqual([400, 1806])
    expect(ds.changeFeed.size).toBe(0)
  })

  it('a client that closes its connection closes its subscription: nothing is left', async () => {
    const { ds } = feedDatastore()
    const { base } = await serveOnSocket(ds)
    const controller = new AbortController()
    const res = await fetch(`${base}/rest/Employee/$changes`, { signal: controller.signal })
    await turnsUntil(() => ds.changeFeed.size === 1, 'subscribed')
    controller.abort()
    await res.body?.cancel().catch(() => undefined)
    await turnsUntil(() => ds.changeFeed.size === 0, 'the subscription closed with its client')
    // A HEAD is answered as a GET without the body: nothing is left subscribed either.
    const head = await fetch(`${base}/rest/Employee/$changes`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(ds.changeFeed.size).toBe(0)
  })
  it('counts its events as bytes out: one past an output quota cuts the feed, then 429', async () => {
    const { ds, clock } = feedDatastore()
    const { base } = await serveOnSocket(ds, { quotas: { outBytesPerMin: 2_000 } })
    const res = await fetch(`${base}/rest/Employee/$changes`)
    expect(res.status).toBe(200)
    const feed = new SseReader(res.body!)
    const E = ds.dataClass('Employee')
    let events = 0
    // Each event is about 100 bytes: the feed ends (cut) well before 100 of them.
    for (let i = 0; i < 100; i++) {
      E.update(1, { salary: 1000 + i })
      const next = await feed.next().catch(() => undefined)
      if (next === undefined) break
      if (next.event !== undefined) events++
    }
    expect(events).toBeGreaterThan(5)
    expect(events).toBeLessThan(20)
    const refused = await fetch(`${base}/rest/Employee/$changes`)
    expect(refused.status).toBe(429)
    expect(((await refused.json()) as any).__ERROR[0].message).toContain('outBytesPerMin')
    clock.advance(60_000)
    const again = await fetch(`${base}/rest/Employee/$changes`)
    expect(again.status).toBe(200)
    await again.body!.cancel()
  })
})

describe('GET /rest/$changes through the fetch handler', () => {
  it('streams as a ReadableStream; cancelling it closes the subscription', async () => {
    const { ds } = feedDatastore()
    const rest = createRestHandler(ds)
    const res = await rest.request('/rest/Employee/$changes')
    expect(res.status).toBe(200)
    const feed = new SseReader(res.body!)
    expect(await feed.next()).toEqual({ retry: '3000' })
    ds.dataClass('Employee').update(2, { lastName: 'T.' })
    const [event] = await feed.take(1)
    expect(event).toMatchObject({ id: '1', event: 'updated', data: { __KEY: '2', lastName: 'T.' } })
    await feed.cancel()
    expect(ds.changeFeed.size).toBe(0)
  })

  it('paces as the handler option `changes` says: retry, heartbeat, buffer', async () => {
    const { ds, clock, timer } = feedDatastore()
    const rest = createRestHandler(ds, {
      changes: { retryMs: 500, heartbeatMs: 1000, bufferLimit: 2 },
    })
    const res = await rest.request('/rest/Employee/$changes')
    const feed = new SseReader(res.body!)
    expect(await feed.next()).toEqual({ retry: '500' })
    // A heartbeat goes to a reader waiting for its next event (the fetch body pulls on read).
    const beat = feed.take(1)
    await timer.until(1)
    await new Promise((resolve) => setImmediate(resolve))
    clock.advance(1000)
    timer.fireAll()
    expect((await beat)[0]).toMatchObject({ event: 'heartbeat' })
    // Three changes unread past a buffer of two: the subscriber is dropped with its resume point.
    for (const salary of [1, 2, 3]) ds.dataClass('Employee').update(1, { salary })
    const events = await feed.take(1)
    expect(events[0]).toMatchObject({ event: 'dropped' })
    await feed.cancel()
  })
})
