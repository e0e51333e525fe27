/**
 * Issue 78: a `restrict` that runs in steps (its `steps`, what a 4D project's restrict gives) runs
 * in a read's slices like the read's other heavy work: the read stops between its steps and runs
 * again once it is done, finding the answer kept by its key. A commit between two of its steps,
 * or a change of the shared state it read, makes it run again: no answer mixes two states.
 */
import { describe, expect, it } from 'vitest'
import type { ModelJson } from '../../schema/model-json.js'
import {
  noteSharedRead,
  noteVolatileRead,
  sharedStateChanged,
} from '../../sessions/session-reads.js'
import { ManualClock } from '../../clock/clock.js'
import { restrictInSteps } from '../objects/data-class-steps.js'
import { DatastoreError } from '../../errors/datastore-error.js'
import { createDatastore, type Datastore } from '../objects/datastore.js'
import type { EntitySelection } from '../objects/entity-selection.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Doc',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'level', type: 'string' },
      ],
    },
  ],
}

const DOCS = Array.from({ length: 20 }, (_, i) => ({
  ID: i + 1,
  level: i % 2 === 0 ? 'public' : 'staff',
}))

/** A datastore whose Doc restrict lets the public ones through, in `stops` + 1 steps. */
function docs(stops: number, readsShared = false) {
  const counts = { calls: 0, stepRuns: 0, steps: 0 }
  const restrict = function (this: { query(q: string, ...a: unknown[]): unknown }) {
    counts.calls++
    if (readsShared) noteSharedRead()
    return this.query('level = :1', 'public')
  }
  restrict.steps = function* (this: { query(q: string, ...a: unknown[]): unknown }) {
    counts.stepRuns++
    for (let i = 0; i < stops; i++) {
      counts.steps++
      if (readsShared) noteSharedRead()
      yield
    }
    counts.steps++
    return this.query('level = :1', 'public')
  }
  const ds: Datastore = createDatastore(model, {
    data: { Doc: DOCS },
    functions: { dataClasses: { Doc: { restrict: restrict as never } } },
  })
  return { ds, counts }
}

// A read in a scope whose slices end at every step, `between` run between two slices; its answer
// and how many times it ran.
function inSlices<T>(ds: Datastore, read: () => T, between: () => void = () => {}) {
  const scope = ds.sliceScope(() => true)
  const session = ds.sessions.open()
  for (;;) {
    try {
      const value = ds.actAs(session, () => scope.run(read))
      scope.close()
      return { value, runs: scope.runs, slices: scope.slices }
    } catch (error) {
      if (!(DatastoreError.is(error) && error.name === 'QuerySuspended')) throw error
      while (!scope.drive()) between()
    }
  }
}

const ids = (s: EntitySelection): number[] =>
  s
    .toArray()
    .map((e) => e.getKey() as number)
    .sort((a, b) => a - b)

describe('a restrict in steps', () => {
  it('runs a slice a step in a read, which runs again and finds its answer', () => {
    const { ds, counts } = docs(5)
    const { value, runs, slices } = inSlices(ds, () => ids(ds.dataClass('Doc').all()))
    expect(value).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19])
    expect(runs).toBe(2)
    expect(slices).toBe(6)
    expect(counts).toEqual({ calls: 0, stepRuns: 1, steps: 6 })
  })

  it('is not run again for the next read: its answer is kept as the plain one is', () => {
    const { ds, counts } = docs(3)
    inSlices(ds, () => ds.dataClass('Doc').all().length)
    const again = inSlices(ds, () => ds.dataClass('Doc').all().length)
    expect(again).toEqual({ value: 10, runs: 1, slices: 0 })
    expect(counts.stepRuns).toBe(1)
  })

  it('goes with the read’s own work in slices (a filter after it)', () => {
    const { ds } = docs(4)
    const { value, runs } = inSlices(ds, () => ids(ds.dataClass('Doc').query('ID > 10')))
    expect(value).toEqual([11, 13, 15, 17, 19])
    expect(runs).toBeGreaterThanOrEqual(2)
  })

  it('runs again after a commit between two of its steps: the answer is the data after it', () => {
    const { ds, counts } = docs(3)
    let wrote = false
    const { value } = inSlices(
      ds,
      () => ids(ds.dataClass('Doc').all()),
      () => {
        if (wrote) return
        wrote = true
        ds.dataClass('Doc').create({ ID: 21, level: 'public' })
      },
    )
    expect(value).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21])
    expect(counts.stepRuns).toBe(2)
  })

  it('is not used when the shared state it read moved between two of its steps', () => {
    const { ds, counts } = docs(3, true)
    let moved = false
    const { value } = inSlices(
      ds,
      () => ids(ds.dataClass('Doc').all()),
      () => {
        if (moved) return
        moved = true
        sharedStateChanged()
      },
    )
    expect(value).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19])
    // Its first answer read a mix of two states: it ran again.
    expect(counts.stepRuns).toBe(2)
  })

  // A 4D restrict stopped inside a `Use` block holds its lock until its `finally` runs.
  it('closes its steps where they stopped when the read is dropped between two of them', () => {
    const seen = { steps: 0, closed: 0 }
    const restrict = function (this: { all(): unknown }) {
      return this.all()
    }
    restrict.steps = function* (this: { all(): unknown }) {
      try {
        for (;;) {
          seen.steps++
          yield
        }
      } finally {
        seen.closed++
      }
    }
    const ds = createDatastore(model, {
      data: { Doc: DOCS },
      functions: { dataClasses: { Doc: { restrict: restrict as never } } },
    })
    const scope = ds.sliceScope(() => true)
    const session = ds.sessions.open()
    expect(() => ds.actAs(session, () => scope.run(() => ds.dataClass('Doc').all()))).toThrow(
      expect.objectContaining({ name: 'QuerySuspended' }),
    )
    expect(scope.drive()).toBe(false)
    expect(seen).toEqual({ steps: 2, closed: 0 })
    scope.close()
    expect(seen).toEqual({ steps: 2, closed: 1 })
  })

  it('is the plain function outside a read in slices', () => {
    const { ds, counts } = docs(3)
    const session = ds.sessions.open()
    expect(ds.actAs(session, () => ds.dataClass('Doc').all().length)).toBe(10)
    expect(counts).toEqual({ calls: 1, stepRuns: 0, steps: 0 })
  })

  // What a caller in slices does before a read (4D code following a relation): the answer the
  // read will use made ahead, in steps, and nothing run when the read would find one.
  it('is made ahead by restrictInSteps, and not again while the last answer serves', () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1))
    const counts = { calls: 0, stepRuns: 0 }
    const restrict = function (this: { query(q: string, ...a: unknown[]): unknown }) {
      counts.calls++
      // It reads the clock: its answer serves its moment only, kept as the last one.
      noteVolatileRead()
      return this.query('level = :1', 'public')
    }
    restrict.steps = function* (this: { query(q: string, ...a: unknown[]): unknown }) {
      counts.stepRuns++
      yield
      return restrict.call(this)
    }
    const ds = createDatastore(model, {
      data: { Doc: DOCS },
      clock,
      functions: { dataClasses: { Doc: { restrict: restrict as never } } },
    })
    const session = ds.sessions.open()
    const doc = ds.dataClass('Doc')
    ds.actAs(session, () => {
      expect(doc.all().length).toBe(10)
      expect(finished(restrictInSteps(doc))).toEqual({ stops: 0 })
      expect(counts).toEqual({ calls: 1, stepRuns: 0 })
      clock.advance(1)
      expect(finished(restrictInSteps(doc))).toEqual({ stops: 1 })
      expect(counts).toEqual({ calls: 2, stepRuns: 1 })
    })
  })
})

function finished(work: Generator<unknown, void, void>): { stops: number } {
  let stops = 0
  while (work.next().done !== true) stops++
  return { stops }
}
