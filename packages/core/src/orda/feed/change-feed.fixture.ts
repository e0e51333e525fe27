/** @module For tests: a small datastore to follow, and a reader that takes what a feed has now. */
import { ManualClock } from '../../clock/clock.js'
import type { ModelJson } from '../../schema/model-json.js'
import type { ChangeEvent, ChangeFeedOptions, ChangeSubscription } from './change-feed.js'
import { createDatastore, type DatastoreOptions } from '../objects/datastore.js'

export const feedModel = (): ModelJson => ({
  dataClasses: [
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'lastName', type: 'string' },
        { name: 'salary', type: 'number', indexed: true },
        { name: 'public', type: 'bool' },
        { name: 'employerID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company', foreignKey: 'employerID' },
      ],
    },
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
  ],
})

/** A manual schedule for the feed's heartbeat timer: `fire()` runs the timers due. */
export function feedTimer(clock: ManualClock) {
  let timers: { at: number; fn: () => void }[] = []
  const schedule: NonNullable<ChangeFeedOptions['schedule']> = (fn, ms) => {
    const timer = { at: clock.now() + ms, fn }
    timers.push(timer)
    return () => {
      timers = timers.filter((t) => t !== timer)
    }
  }
  return {
    schedule,
    get pending() {
      return timers.length
    },
    /** Runs the timers due on the clock now. */
    fire() {
      const due = timers.filter((t) => t.at <= clock.now())
      timers = timers.filter((t) => t.at > clock.now())
      for (const t of due) t.fn()
    },
  }
}

export function feedStore(options: Omit<DatastoreOptions, 'clock'> = {}) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1))
  const timer = feedTimer(clock)
  const ds = createDatastore(feedModel(), {
    ...options,
    clock,
    changeHistory: { schedule: timer.schedule, ...options.changeHistory },
  })
  return { ds, clock, timer }
}

/** The events of a subscription available now, without waiting for more. */
export class FeedReader<T = Record<string, unknown>> {
  readonly sub: ChangeSubscription<T>
  #pending: Promise<IteratorResult<ChangeEvent<T>>> | undefined
  /** Whether the subscription ended. */
  done = false

  constructor(sub: ChangeSubscription<T>) {
    this.sub = sub
  }

  /** Every event available: reads until a read would wait (a turn of the event loop passes). */
  async drain(): Promise<ChangeEvent<T>[]> {
    const out: ChangeEvent<T>[] = []
    const idle = Symbol('idle')
    for (;;) {
      const next = (this.#pending ??= this.sub.next())
      // A turn of the event loop, not a time: every microtask of the read runs before it.
      const turn = new Promise<typeof idle>((resolve) => setImmediate(() => resolve(idle)))
      const r = await Promise.race([next, turn])
      if (r === idle) return out
      this.#pending = undefined
      if (r.done) {
        this.done = true
        return out
      }
      out.push(r.value)
    }
  }
}
