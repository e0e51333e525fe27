// This process's lease, without PostgreSQL: reads are answered only once it joined and caught up
// with the head it read, and while its lease holds by its own clock; renewals every quarter of
// the lease; a lease lost (fenced, run out) is joined again; a failing renewal is told once.
import { describe, expect, it } from 'vitest'
import { Lease, type LeaseFollower, type LeaseLog } from './lease.js'

function setUp({ head = 0, applied = 0 } = {}) {
  let now = 100
  const timers: { at: number; fn: () => void }[] = []
  const calls: string[] = []
  const errors: Error[] = []
  let renewal: () => Promise<boolean> = async () => true
  const log: LeaseLog = {
    join: async (leaseMs, at) => {
      calls.push(`join ${leaseMs} ${at}`)
      return { head }
    },
    renew: (leaseMs, at) => {
      calls.push(`renew ${leaseMs} ${at}`)
      return renewal()
    },
  }
  const follower: LeaseFollower & { applied: number } = {
    applied,
    heardOf: (seq) => void calls.push(`heard ${seq}`),
    catchUp: async () => void calls.push('catch up'),
  }
  const stop = new AbortController()
  const lease = new Lease(log, follower, {
    leaseMs: 1000,
    now: () => now,
    schedule: (fn, ms) => {
      const timer = { at: now + ms, fn }
      timers.push(timer)
      return () => void timers.splice(timers.indexOf(timer), 1)
    },
    onError: (e) => errors.push(e),
    signal: stop.signal,
  })
  const advance = async (ms: number) => {
    now += ms
    for (const timer of timers.filter((t) => t.at <= now)) {
      timers.splice(timers.indexOf(timer), 1)
      timer.fn()
    }
    for (let i = 0; i < 10; i++) await Promise.resolve()
  }
  return {
    lease,
    follower,
    calls,
    errors,
    stop,
    advance,
    timers,
    renewWith: (fn: () => Promise<boolean>) => void (renewal = fn),
  }
}

describe('the lease', () => {
  it('lets reads through once joined, current, until its time runs out by this clock', async () => {
    const { lease, calls, advance } = setUp({ head: 5, applied: 5 })
    expect(lease.unavailable()).toBe('it is catching up with the shared log')
    await lease.join()
    expect(calls).toEqual(['join 1000 5', 'heard 5'])
    expect(lease.unavailable()).toBeUndefined()
    await advance(999)
    // No renewal was scheduled (join alone): the lease runs out.
    await advance(1)
    expect(lease.unavailable()).toBe('it could not renew its lease on the shared log in time')
  })

  it('behind the head it joined at, catches up first, and is current once it applied it', async () => {
    const { lease, follower, calls } = setUp({ head: 9, applied: 4 })
    await lease.join()
    expect(calls).toEqual(['join 1000 4', 'heard 9', 'catch up'])
    expect(lease.unavailable()).toBe('it is catching up with the shared log')
    lease.caughtUp(8)
    expect(lease.unavailable()).toBe('it is catching up with the shared log')
    follower.applied = 9
    lease.caughtUp(9)
    expect(lease.unavailable()).toBeUndefined()
  })

  it('is renewed every quarter of its length, which extends it from when the renewal was sent', async () => {
    const { lease, calls, advance } = setUp()
    await lease.start()
    for (let i = 0; i < 8; i++) await advance(250)
    expect(calls.filter((c) => c.startsWith('renew'))).toHaveLength(8)
    // 2 s on, past the first lease: each renewal extended it.
    expect(lease.unavailable()).toBeUndefined()
  })

  it('lost (fenced or run out by PostgreSQL’s clock), is joined again', async () => {
    const { lease, calls, advance, renewWith } = setUp()
    await lease.start()
    renewWith(async () => false)
    await advance(250)
    expect(calls).toEqual(['join 1000 0', 'heard 0', 'renew 1000 0', 'join 1000 0', 'heard 0'])
  })

  it('that cannot be renewed is told once per outage, and reads stop once it runs out', async () => {
    const { lease, errors, advance, renewWith } = setUp()
    await lease.start()
    renewWith(async () => {
      throw new Error('connection refused')
    })
    for (let i = 0; i < 4; i++) await advance(250)
    expect(errors.map((e) => e.message)).toEqual([
      'entistore cluster: the lease on the shared log cannot be renewed (connection refused); reads are refused once it runs out',
    ])
    expect(lease.unavailable()).toBe('it could not renew its lease on the shared log in time')
    renewWith(async () => true)
    await advance(250)
    // Renewed again, but not current: it joins again.
    renewWith(async () => {
      throw new Error('again')
    })
    await advance(250)
    expect(errors).toHaveLength(2)
  })

  it('stops with the process: no more renewals, no reads', async () => {
    const { lease, calls, advance, stop, timers } = setUp()
    await lease.start()
    stop.abort()
    lease.stop()
    expect(timers).toHaveLength(0)
    await advance(5000)
    expect(calls).toEqual(['join 1000 0', 'heard 0'])
    expect(lease.unavailable()).toBe('it is stopping')
    await lease.join()
    expect(calls).toHaveLength(2)
  })
})
