/**
 * The role over time, driven by a scripted lease (its answers are what writer-lease.test.ts shows
 * PostgreSQL gives) and a manual schedule: one look a beat, the writer's start held until it
 * caught up, a stop told at once.
 */
import { describe, expect, it } from 'vitest'
import { manualSchedule } from '../../../../rest/src/schedule.fixture.js'
import type { LeaseState } from './writer-lease.js'
import { WriterRole } from './writer-role.js'

const follower: LeaseState = {
  role: 'follower',
  writer: { term: 1, origin: 'b', address: 'unix:/b', token: 't1', beat: 3 },
}
const writer = (term: number): LeaseState => ({ role: 'writer', term, token: `t${term}` })

function setup(states: (LeaseState | Error)[]) {
  const timers = manualSchedule()
  const told: string[] = []
  let term: number | undefined
  let catchUp: (() => void) | undefined
  let failStart = false
  const lease = {
    beatMs: 500,
    get term() {
      return term
    },
    check: async () => {
      const next = states.shift() ?? follower
      if (next instanceof Error) throw next
      term = next.role === 'writer' ? next.term : undefined
      return next
    },
  }
  const role = new WriterRole({
    lease,
    schedule: timers.schedule,
    onWriter: (t) => {
      told.push(`writer ${t}`)
      if (failStart) return Promise.reject(new Error('log unreachable'))
      return new Promise<void>((resolve) => (catchUp = resolve))
    },
    onFollower: (why) => told.push(`follower: ${why}`),
    onError: (e) => told.push(`error: ${e.message}`),
  })
  const beat = async () => {
    timers.advance(500)
    await new Promise((r) => setImmediate(r))
  }
  return {
    role,
    told,
    timers,
    beat,
    caughtUp: () => catchUp?.(),
    fence: () => (term = undefined),
    failStart: (f: boolean) => (failStart = f),
  }
}

describe('WriterRole', () => {
  it('follows, then writes only once caught up; a look a beat', async () => {
    const s = setup([follower, writer(2), writer(2), writer(2)])
    await s.role.start()
    expect([s.role.isWriter, s.role.writer?.address]).toEqual([false, 'unix:/b'])
    expect(s.timers.pending).toEqual([500])
    await s.beat()
    expect(s.told).toEqual(['writer 2'])
    expect(s.role.isWriter).toBe(false) // still applying the log
    expect(s.timers.pending).toEqual([]) // no second look while the first is not done
    s.caughtUp()
    await new Promise((r) => setImmediate(r))
    expect(s.role.isWriter).toBe(true)
    await s.beat()
    await s.beat()
    expect(s.told).toEqual(['writer 2']) // started once
  })

  it('a fence is told at once, and a writer fenced while it caught up never starts', async () => {
    const s = setup([writer(1)])
    const started = s.role.start()
    await new Promise((r) => setImmediate(r))
    s.fence()
    s.caughtUp()
    await started
    expect(s.role.isWriter).toBe(false)
    const t = setup([writer(1), writer(1)])
    const first = t.role.start()
    await new Promise((r) => setImmediate(r))
    t.caughtUp()
    await first
    expect(t.role.isWriter).toBe(true)
    t.role.fenced('term raised past 1')
    expect([t.role.isWriter, t.told.at(-1)]).toEqual([false, 'follower: term raised past 1'])
  })

  it('a failed look is told and tried again at the next beat; a failed start too', async () => {
    const s = setup([new Error('no PostgreSQL'), writer(3), writer(3)])
    s.failStart(true)
    await s.role.start()
    expect(s.told).toEqual(['error: no PostgreSQL'])
    await s.beat()
    expect(s.told.slice(1)).toEqual([
      'writer 3',
      'error: log unreachable',
      'follower: could not start as the writer: log unreachable',
    ])
    s.failStart(false)
    await s.beat()
    s.caughtUp()
    await new Promise((r) => setImmediate(r))
    expect(s.role.isWriter).toBe(true)
  })

  it('close stops the looks and the writing', async () => {
    const s = setup([writer(1)])
    const first = s.role.start()
    await new Promise((r) => setImmediate(r))
    s.caughtUp()
    await first
    s.role.close()
    expect([s.role.isWriter, s.timers.pending]).toEqual([false, []])
    expect(s.told.at(-1)).toBe('follower: closing')
  })
})
