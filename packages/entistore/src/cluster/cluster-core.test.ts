/**
 * The cluster's RestCore with one participant taking part in requests (as Redis does): reads
 * that name nothing shared stay synchronous, writes go in groups between `beforeWrite` and
 * `afterWrite` (given the records the group committed), a participant that fails is a 503
 * with its own error: the write not run, or undone, and replies wait for the group to be visible.
 */
import { createDatastore, datastoreError } from '@entistore/core'
import { createRestHandler, isPending, type RestRequest } from '@entistore/rest'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import type { ClusterParticipant } from './participant.js'
import { ClusterWrites } from './cluster-core.js'

const get = (path: string): RestRequest => ({ method: 'GET', path, query: '', headers: {} })
const update = (salary: number): RestRequest => ({
  method: 'POST',
  path: '/rest/Employee',
  query: '$method=update',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ __KEY: '1', salary }),
})

function setup(...participants: Partial<ClusterParticipant>[]) {
  const ds = createDatastore(writeModel(), { data: writeData() })
  const core = new ClusterWrites(
    ds,
    participants.map((p, i) => ({ name: `test ${i}`, close: async () => {}, ...p })),
  ).wrap(createRestHandler(ds))
  return { ds, core }
}

const unavailable = () => datastoreError('SharedStateUnavailable', ['Redis', 'down'])

describe('ClusterWrites.wrap with a participant', () => {
  it('answers a read that names nothing shared synchronously, then tells afterRequest', () => {
    const log: string[] = []
    const { core } = setup({
      beforeRequest: () => void log.push('before'),
      afterRequest: () => void log.push('after'),
    })
    const reply = core.respond(get('/rest/Employee(1)'))
    if (isPending(reply)) throw new Error('a read that names nothing shared waited')
    expect(reply.status).toBe(200)
    expect(log).toEqual(['before', 'after'])
  })

  it('runs the writes that arrive while a group is in flight as the next group: one beforeWrite, each write in order, one afterWrite', async () => {
    const log: string[] = []
    let release!: () => void
    const first = new Promise<void>((r) => (release = r))
    let n = 0
    const { ds, core } = setup({
      // One that logs every commit (as PostgreSQL): one afterWrite per group, with every record.
      logsEveryCommit: true,
      beforeWrite: async () => {
        const me = ++n
        log.push(`beforeWrite ${me}`)
        if (me === 1) await first
      },
      afterWrite: async (records) => {
        log.push(`afterWrite ${records.length}`)
      },
    })
    const a = core.respond(update(1))
    await new Promise((r) => setTimeout(r, 10))
    // Arrive while the first group waits in its beforeWrite: they go together in the next one.
    const b = core.respond(update(2))
    const c = core.respond(update(3))
    expect(log).toEqual(['beforeWrite 1'])
    release()
    expect((await a).status).toBe(200)
    expect((await b).status).toBe(200)
    expect((await c).status).toBe(200)
    expect(log).toEqual(['beforeWrite 1', 'afterWrite 1', 'beforeWrite 2', 'afterWrite 2'])
    expect(ds.dataClass('Employee').get(1)!.get('salary')).toBe(3)
  })

  it('refuses one write of a group alone when a participant that does not log refuses it, and replies only once the group is visible', async () => {
    let release!: () => void
    const first = new Promise<void>((r) => (release = r))
    let visible!: () => void
    const shown = new Promise<void>((r) => (visible = r))
    let groups = 0
    const settled: string[] = []
    const { ds, core } = setup(
      {
        // As Redis: told after each write; it refuses the one that set salary 20.
        afterWrite: async (records) => {
          const salary = records[0]?.changes[0]
          if (salary && 'values' in salary && salary.values['salary'] === 20) throw unavailable()
        },
      },
      {
        logsEveryCommit: true,
        beforeWrite: async () => {
          if (++groups === 1) await first
        },
        afterWrite: async (records) => (records.length === 2 ? { visible: shown } : undefined),
      },
    )
    const a = core.respond(update(1))
    await new Promise((r) => setTimeout(r, 10))
    const group = [10, 20, 30].map((salary) =>
      Promise.resolve(core.respond(update(salary))).then((reply) => {
        settled.push(`${salary}: ${reply.status}`)
        return reply
      }),
    )
    release()
    expect((await a).status).toBe(200)
    await new Promise((r) => setTimeout(r, 10))
    // Committed, not yet visible everywhere: no reply yet; the refused write's changes undone.
    expect(settled).toEqual([])
    expect(ds.dataClass('Employee').get(1)!.get('salary')).toBe(30)
    visible()
    const replies = await Promise.all(group)
    expect(replies.map((r) => r.status)).toEqual([200, 503, 200])
    expect(groups).toBe(2)
  })

  it('appends a group of data writes without beforeWrite, and runs it again after beforeWrite when the log moved on', async () => {
    const log: string[] = []
    let moves = 1
    const { ds, core } = setup({
      logsEveryCommit: true,
      beforeWrite: async () => void log.push('beforeWrite'),
      afterWrite: async (records) => void log.push(`afterWrite ${records.length}`),
      tryAppend: async (records) => {
        log.push(`tryAppend ${records.length}`)
        return moves-- > 0 ? 'moved' : undefined
      },
    })
    // Moved on: undone (the salary was 100 before: writeData), then run again after beforeWrite.
    expect((await core.respond(update(7))).status).toBe(200)
    expect(log).toEqual(['tryAppend 1', 'beforeWrite', 'afterWrite 1'])
    expect(ds.dataClass('Employee').get(1)!.get('salary')).toBe(7)
    expect(ds.dataClass('Employee').get(1)!.stamp).toBe(2)
    log.length = 0
    expect((await core.respond(update(8))).status).toBe(200)
    expect(log).toEqual(['tryAppend 1'])
    // A participant that catches up after a move: the group is tried again in one round trip,
    // three times at most, then the careful way.
    log.length = 0
    let moving = 5
    const retried = setup({
      logsEveryCommit: true,
      beforeWrite: async () => void log.push('beforeWrite'),
      afterWrite: async (records) => void log.push(`afterWrite ${records.length}`),
      tryAppend: async () => {
        log.push('tryAppend')
        return moving-- > 0 ? 'moved' : undefined
      },
      retry: async () => {
        log.push('retry')
        return true
      },
    })
    expect((await retried.core.respond(update(11))).status).toBe(200)
    expect(log).toEqual([
      'tryAppend',
      'retry',
      'tryAppend',
      'retry',
      'tryAppend',
      'beforeWrite',
      'afterWrite 1',
    ])
    expect(retried.ds.dataClass('Employee').get(1)!.stamp).toBe(2)
    // Not a plain data write (code that may do more than write): never run twice.
    log.length = 0
    const writes = new ClusterWrites(ds, [
      {
        name: 'log',
        logsEveryCommit: true,
        close: async () => {},
        beforeWrite: async () => void log.push('beforeWrite'),
        afterWrite: async (records) => void log.push(`afterWrite ${records.length}`),
        tryAppend: async () => void log.push('tryAppend'),
      },
    ])
    let runs = 0
    await writes.write(() => {
      runs++
      ds.dataClass('Employee').update(1, { salary: 9 })
    })
    expect([runs, log]).toEqual([1, ['beforeWrite', 'afterWrite 1']])
    await writes.close()
  })

  it('holds a read while a group tried without the lock is in memory: it never sees a write the log then refuses', async () => {
    // The append is held open until the test lets it answer: 'moved', then (the retry refused,
    // as when another process's write took the stamp) nothing more is written.
    let answer!: (value: 'moved') => void
    let tries = 0
    const { ds, core } = setup({
      logsEveryCommit: true,
      beforeWrite: async () => {},
      afterWrite: async () => {},
      tryAppend: () =>
        tries++ === 0 ? new Promise<'moved'>((resolve) => (answer = resolve)) : Promise.resolve(),
      retry: async () => {
        // The other process's write, applied as a catch-up would: salary 55, the next stamp.
        ds.dataClass('Employee').update(1, { salary: 55 })
        return true
      },
    })
    // With the stamp read before: refused (409) once the other write took the next stamp.
    const write = core.respond({
      ...update(7),
      body: JSON.stringify({
        __KEY: '1',
        __STAMP: ds.dataClass('Employee').get(1)!.stamp,
        salary: 7,
      }),
    })
    await new Promise((resolve) => setImmediate(resolve))
    // The group is in memory (salary 7), not in the log: a read waits instead of answering it.
    expect(ds.dataClass('Employee').get(1)!.get('salary')).toBe(7)
    const read = core.respond(get('/rest/Employee(1)'))
    expect(isPending(read)).toBe(true)
    answer('moved')
    const body = JSON.parse(String((await read).body)) as { salary: number; __STAMP: number }
    expect([body.salary, body.__STAMP]).toEqual([55, 2])
    expect((await write).status).toBe(409)
  })

  it('answers 503 with the participant’s error: a write its beforeWrite refused is not run, one its afterWrite refused is undone', async () => {
    const before = setup({ beforeRequest: () => Promise.reject(unavailable()) })
    const refused = await before.core.respond(get('/rest/Employee(1)'))
    expect(refused.status).toBe(503)
    expect(JSON.parse(refused.body as string).__ERROR[0].errCode).toBe(9140)

    const write = setup({ beforeWrite: () => Promise.reject(unavailable()) })
    expect((await write.core.respond(update(9))).status).toBe(503)
    expect(write.ds.dataClass('Employee').get(1)!.get('salary')).not.toBe(9)
    // The gate is open again for the next write.
    let fail = true
    const after = setup({
      afterWrite: async () => {
        if (fail) throw unavailable()
      },
    })
    const undone = await after.core.respond(update(9))
    expect(undone.status).toBe(503)
    expect(JSON.parse(undone.body as string).__ERROR[0].errCode).toBe(9140)
    expect(after.ds.dataClass('Employee').get(1)!.get('salary')).not.toBe(9)
    fail = false
    expect((await after.core.respond(update(10))).status).toBe(200)
  })

  it('tells the participants after one whose afterWrite refused that the write committed nothing', async () => {
    const told: number[] = []
    const { ds, core } = setup(
      { afterWrite: () => Promise.reject(unavailable()) },
      { afterWrite: async (records) => void told.push(records.length) },
    )
    expect((await core.respond(update(9))).status).toBe(503)
    expect(told).toEqual([0])
    expect(ds.dataClass('Employee').get(1)!.get('salary')).not.toBe(9)
  })

  it('asks the one that logs every commit last, so that a refusal before it commits nothing there', async () => {
    const order: string[] = []
    const { ds, core } = setup(
      {
        name: 'log',
        logsEveryCommit: true,
        afterWrite: async (records) => void order.push(`log ${records.length}`),
      },
      {
        afterWrite: async (records) => {
          order.push(`shared ${records.length}`)
          if (records.length > 0 && ds.dataClass('Employee').get(1)!.get('salary') === 9)
            throw unavailable()
        },
      },
    )
    expect((await core.respond(update(8))).status).toBe(200)
    expect(order).toEqual(['shared 1', 'log 1'])
    order.length = 0
    expect((await core.respond(update(9))).status).toBe(503)
    expect(order).toEqual(['shared 1', 'log 0'])
    expect(ds.dataClass('Employee').get(1)!.get('salary')).toBe(8)
  })
})
