/**
 * Issue 65: work in slices that parks, waiting for something outside the thread (a worker pool's
 * run) without a step taken meanwhile. The promises are settled by hand and the steps counted.
 */
import { describe, expect, it } from 'vitest'
import { DatastoreError } from '../errors/datastore-error.js'
import { drivingScope, finish, sliceable, SliceScope, type Parked, type Work } from './slices.js'

/** A promise and its settlers. */
function gate(): { promise: Parked; open: () => void; fail: (error: unknown) => void } {
  let open!: () => void
  let fail!: (error: unknown) => void
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve
    fail = reject
  })
  return { promise, open, fail }
}

/**
 * Work of `before` steps, a park on `wait` when a scope drives it (else none), then `after` steps:
 * its result is the steps it ran; `log` says what it met.
 */
function* parking(wait: Parked, log: string[], before = 1, after = 1): Work<number> {
  let steps = 0
  try {
    for (let i = 0; i < before; i++, steps++) yield
    if (drivingScope() !== undefined) {
      log.push('parked')
      try {
        yield wait
      } catch (error) {
        log.push(`caught ${String(error)}`)
        throw error
      }
      log.push('resumed')
    }
    for (let i = 0; i < after; i++, steps++) yield
    return steps
  } finally {
    log.push('finally')
  }
}

/** A scope whose slices end after `steps` steps each. */
function scope(steps = Infinity): SliceScope {
  let n = 0
  return new SliceScope(() => ++n % steps === 0)
}

// The request's first run: QuerySuspended when the work did not end in it.
const suspends = (s: SliceScope, make: () => Work<number>): boolean => {
  try {
    s.run(() => sliceable('w', make))
    return false
  } catch (error) {
    if (DatastoreError.is(error) && error.name === 'QuerySuspended') return true
    throw error
  }
}

const flush = (): Promise<void> => new Promise((r) => setImmediate(r))

describe('work that parks', () => {
  it('parks its scope: drive returns the promise, runs no step until it settles, then goes on', async () => {
    const g = gate()
    const log: string[] = []
    const s = scope()
    // A first run that parks at once is suspended like one whose slice ended.
    expect(suspends(s, () => parking(g.promise, log, 0))).toBe(true)
    expect(s.tracking).toBe(true)
    expect(s.slices).toBe(1)
    const parked = s.parked
    expect(parked).toBeInstanceOf(Promise)
    // Driven again before the promise settles: the same promise, no slice, no step.
    expect(s.drive()).toBe(parked)
    await flush()
    expect(s.drive()).toBe(parked)
    expect(s.slices).toBe(1)
    expect(log).toEqual(['parked'])
    g.open()
    await parked
    expect(s.parked).toBeUndefined()
    expect(s.drive()).toBe(true)
    expect(s.slices).toBe(2)
    expect(log).toEqual(['parked', 'resumed', 'finally'])
    // The next run finds the result kept.
    expect(s.run(() => sliceable('w', () => parking(g.promise, log)))).toBe(1)
  })

  it('parks after steps in later slices, and a slice ends at a park whatever time it had left', async () => {
    const g = gate()
    const log: string[] = []
    const s = scope(3)
    // Three steps a slice: the first run's, then one step and the park.
    expect(suspends(s, () => parking(g.promise, log, 4, 4))).toBe(true)
    const parked = s.drive()
    expect(parked).toBeInstanceOf(Promise)
    expect(s.slices).toBe(2)
    g.open()
    await parked
    expect(s.drive()).toBe(false)
    expect(s.drive()).toBe(true)
    expect(s.slices).toBe(4)
    expect(s.run(() => sliceable('w', () => parking(g.promise, log)))).toBe(8)
  })

  it('throws a rejected park into the work, then out of drive, and drops the work', async () => {
    const g = gate()
    const log: string[] = []
    const s = scope()
    expect(suspends(s, () => parking(g.promise, log))).toBe(true)
    const parked = s.drive() as Promise<void>
    g.fail('pool failed')
    // The scope's promise resolves: its drive throws.
    await expect(parked).resolves.toBeUndefined()
    expect(() => s.drive()).toThrow('pool failed')
    expect(log).toEqual(['parked', 'caught pool failed', 'finally'])
    expect(s.pending).toBe(false)
  })

  it('closed while parked: the work returns at its park, its finally run', async () => {
    const g = gate()
    const log: string[] = []
    const s = scope()
    expect(suspends(s, () => parking(g.promise, log))).toBe(true)
    const parked = s.drive()
    s.close()
    expect(log).toEqual(['parked', 'finally'])
    expect(s.pending).toBe(false)
    g.open()
    await parked
    expect(s.drive()).toBe(true)
    expect(log).toEqual(['parked', 'finally'])
  })

  it('closes itself when its park settles and its request is no longer wanted', async () => {
    const g = gate()
    const log: string[] = []
    const s = scope()
    let wanted = true
    s.wanted = () => wanted
    let askedByWork: boolean | undefined
    const make = function* (): Work<number> {
      askedByWork = drivingScope()?.wanted?.()
      return yield* parking(g.promise, log)
    }
    expect(suspends(s, make)).toBe(true)
    expect(askedByWork).toBe(true)
    const parked = s.drive()
    wanted = false
    // Not before it settles: the work's own run (a pool's) is what asks meanwhile.
    expect(log).toEqual(['parked'])
    g.open()
    await parked
    expect(log).toEqual(['parked', 'finally'])
    expect(s.pending).toBe(false)
  })

  it('never parks in one piece: finish runs the work that asks, and refuses one that parks anyway', () => {
    const g = gate()
    const log: string[] = []
    // The work asks drivingScope(): in one piece (finish), or met inside a driven work, it has none.
    expect(finish(parking(g.promise, log, 2, 2))).toBe(4)
    expect(log).toEqual(['finally'])
    function* careless(): Work<number> {
      try {
        yield g.promise
        return 1
      } finally {
        log.push('careless finally')
      }
    }
    expect(() => finish(careless())).toThrow(/Internal error: a work parked/)
    expect(log).toEqual(['finally', 'careless finally'])
    // Outside a scope, sliceable runs it in one piece: the same refusal.
    expect(() => sliceable('c', careless)).toThrow(/Internal error/)
    // Inside a driven work, the work it meets (a calculated attribute's query) runs in one piece.
    const s = scope()
    let asked: SliceScope | undefined = s
    const outer = function* (): Work<number> {
      yield
      return sliceable('inner', () => {
        asked = drivingScope()
        return careless()
      })
    }
    expect(() => suspends(s, outer)).toThrow(/Internal error/)
    expect(asked).toBeUndefined()
  })
})

describe('closing a scope', () => {
  // A scope the heap still holds after its request (a reference from an object not collected
  // yet) must not hold that request's results: close() lets them go, as a later run shows.
  it('lets go of the results it kept', () => {
    const s = scope()
    let made = 0
    const counted = function* (): Work<number> {
      made++
      yield
      return 7
    }
    expect(s.run(() => sliceable('w', counted))).toBe(7)
    // A second run of the request finds the result kept.
    expect(s.run(() => sliceable('w', counted))).toBe(7)
    expect(made).toBe(1)
    s.close()
    expect(s.run(() => sliceable('w', counted))).toBe(7)
    expect(made).toBe(2)
    expect(s.tracking).toBe(false)
  })
})
