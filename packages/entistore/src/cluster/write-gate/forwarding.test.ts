/**
 * Forwarded writes across a failover, on a model of the cluster: a log (an array), writers that
 * answer with the real WriteAnswering and can die before or after their commit, a follower with
 * the real WriteForwarding on a manual clock. Each fault ends the same way: the client is told
 * the write's reply and it is in the log once, or told 503 and it is not in the log at all.
 */
import { DatastoreError } from '@entistore/core'
import type { RestRequest } from '@entistore/rest'
import { describe, expect, it } from 'vitest'
import { LoggedReplies, WriteAnswering } from './answering.js'
import { ForwardFailed } from './forward-link.js'
import { toForwardedReply, type ForwardedReply, type ForwardedWrite } from './forwarded.js'
import { WriteForwarding, type WriterAt } from './forwarding.js'

type Fault = 'none' | 'dead' | 'die-before-commit' | 'die-after-commit' | 'not-writer'

/** A cluster of one log and writers taking turns, the follower's view of it, and a clock. */
function model() {
  const log: { id: string; body: string }[] = []
  let now = 0
  let current: WriterAt | undefined
  const writers = new Map<string, { answering: WriteAnswering; fault: Fault }>()
  const takeovers: { at: number; address: string }[] = []
  /** A writer named `address`; every writer reads the one log's replies. */
  const writer = (address: string) => {
    const replies = new LoggedReplies()
    for (const [i, e] of log.entries()) replies.add(e.id, reply(e.body, i + 1))
    const answering = new WriteAnswering({
      isWriter: () => current?.address === address,
      replies,
      run: async (request: RestRequest, id: string) => {
        const body = `ran ${String(request.body)}`
        log.push({ id, body })
        replies.add(id, reply(body, log.length))
        return { reply: { status: 200, headers: {}, body }, at: log.length }
      },
    })
    writers.set(address, { answering, fault: 'none' })
  }
  const reply = (body: string, at: number): ForwardedReply =>
    toForwardedReply({ status: 200, headers: {}, body }, at)
  const becomeWriter = (address: string, term: number) => {
    writer(address) // a new writer applies the whole log before its first write
    current = { term, address, token: `t${term}` }
  }
  const sender = {
    async send(address: string, token: string, write: ForwardedWrite): Promise<ForwardedReply> {
      const w = writers.get(address)
      if (!w || w.fault === 'dead') throw new ForwardFailed('unsent', `${address} is down`)
      if (w.fault === 'not-writer' || token !== current?.token)
        throw new ForwardFailed('refused', `${address} is not the writer`)
      if (w.fault === 'die-before-commit') {
        w.fault = 'dead'
        if (current?.address === address) current = undefined
        throw new ForwardFailed('in-doubt', `${address} died with the write`)
      }
      const answer = await w.answering.answer(write)
      if (w.fault === 'die-after-commit') {
        w.fault = 'dead'
        if (current?.address === address) current = undefined
        throw new ForwardFailed('in-doubt', `${address} died before it answered`)
      }
      return answer
    },
  }
  const appliedUpTo: number[] = []
  const follower = new WriteForwarding({
    origin: 'f',
    writer: async () => current,
    sender,
    applied: async (at) => void appliedUpTo.push(at),
    now: () => now,
    wait: async (ms) => {
      now += ms
      for (const t of takeovers.splice(0))
        if (t.at <= now) becomeWriter(t.address, (current?.term ?? 1) + 1)
        else takeovers.push(t)
    },
    failoverMs: 3000,
    doubtMs: 10_000,
  })
  const write = (body: string) =>
    follower.forward({
      method: 'POST',
      path: '/rest/A',
      query: '$method=update',
      headers: {},
      body,
    })
  const fault = (address: string, f: Fault) => (writers.get(address)!.fault = f)
  /** Another writer takes over once the clock reaches `at`. */
  const takeOver = (address: string, at: number) => takeovers.push({ at, address })
  return { log, write, fault, takeOver, becomeWriter, appliedUpTo, time: () => now }
}

const refusal = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (error: unknown) => error,
  )
  expect(e).toBeInstanceOf(DatastoreError)
  return e as DatastoreError
}

describe('forwarded writes', () => {
  it('go to the writer, and are answered once applied here up to the reply’s position', async () => {
    const m = model()
    m.becomeWriter('w1', 1)
    expect((await m.write('x')).body).toBe('ran x')
    expect((await m.write('y')).body).toBe('ran y')
    expect(m.log.map((e) => e.id)).toEqual(['f:1', 'f:2'])
    expect(m.appliedUpTo).toEqual([1, 2])
  })

  it.each([
    ['down', 'dead'],
    ['dying with the write before its commit', 'die-before-commit'],
    ['dying after its commit, before it answered', 'die-after-commit'],
    ['no longer the writer', 'not-writer'],
  ] as const)('a writer %s: the next one answers, the write in the log once', async (_, f) => {
    const m = model()
    m.becomeWriter('w1', 1)
    await m.write('before')
    m.fault('w1', f)
    m.takeOver('w2', 1000)
    const reply = await m.write('x')
    expect(reply.body).toBe('ran x')
    expect(m.log.filter((e) => e.id === 'f:2')).toHaveLength(1)
    expect(m.time()).toBeGreaterThanOrEqual(1000)
  })

  it('no writer within failoverMs: 503, Retry-After, not applied — and the log says so', async () => {
    const m = model()
    m.becomeWriter('w1', 1)
    m.fault('w1', 'dead')
    const e = await refusal(m.write('x'))
    expect([e.errCode, e.details]).toEqual([9146, { retryAfter: 1 }])
    expect(e.message).toMatch(/it was not applied/)
    expect(m.log).toEqual([])
    expect(m.time()).toBe(3000)
  })

  it('in doubt: sent again for doubtMs (not failoverMs), then given up as unknown', async () => {
    const m = model()
    m.becomeWriter('w1', 1)
    m.fault('w1', 'die-after-commit')
    const e = await refusal(m.write('x'))
    expect(e.errCode).toBe(9146)
    expect(e.message).toMatch(/may have been applied/)
    expect(m.time()).toBe(10_000)
    // It was: the next writer would have answered it from the log.
    expect(m.log.map((l) => l.id)).toEqual(['f:1'])
  })

  it('a writer answers an id it already ran from the log, one still running with that run', async () => {
    const log: string[] = []
    let finish: () => void = () => undefined
    const replies = new LoggedReplies(2)
    const answering = new WriteAnswering({
      isWriter: () => true,
      replies,
      run: (_request, id) =>
        new Promise((resolve) => {
          finish = () => {
            log.push(id)
            resolve({ reply: { status: 200, headers: {}, body: id }, at: log.length })
          }
        }),
    })
    const write = { id: 'p:1', method: 'POST', path: '/rest/A', query: '', headers: {}, body: null }
    const first = answering.answer(write)
    const again = answering.answer(write)
    finish()
    expect(await first).toEqual(await again)
    expect(log).toEqual(['p:1'])
    // Known from the log (another writer ran it): not run again. Only the last `max` are kept.
    replies.add('p:9', toForwardedReply({ status: 201, headers: {}, body: 'logged' }, 7))
    expect((await answering.answer({ ...write, id: 'p:9' })).body).toEqual({ text: 'logged' })
    replies.add('p:10', toForwardedReply({ status: 201, headers: {}, body: '' }, 8))
    replies.add('p:11', toForwardedReply({ status: 201, headers: {}, body: '' }, 9))
    expect(replies.size).toBe(2)
    expect(replies.get('p:9')).toBeUndefined()
  })

  it('a process that is not the writer runs nothing', async () => {
    const answering = new WriteAnswering({
      isWriter: () => false,
      replies: new LoggedReplies(),
      run: () => Promise.reject(new Error('ran')),
    })
    const write = { id: 'p:1', method: 'POST', path: '/rest/A', query: '', headers: {}, body: null }
    await expect(answering.answer(write)).rejects.toThrow(/not the writer/)
  })

  it('a write the writer committed but this process cannot apply: 503 unconfirmed, not a stale answer', async () => {
    const forwarding = new WriteForwarding({
      origin: 'f',
      writer: async () => ({ term: 1, address: 'w', token: 't' }),
      sender: { send: async () => toForwardedReply({ status: 200, headers: {}, body: 'ok' }, 5) },
      applied: () => Promise.reject(new Error('cut off from PostgreSQL')),
      now: () => 0,
      wait: async () => undefined,
    })
    const e = await refusal(
      forwarding.forward({ method: 'POST', path: '/rest/A', query: '', headers: {} }),
    )
    expect([e.errCode, e.details]).toEqual([9135, { retryAfter: 1 }])
  })
})
