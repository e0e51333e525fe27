/**
 * The time budget of queries (budget.ts): a long scan, ordering or aggregate stops with
 * QueryBudgetExceeded (9090) once the clock passes the deadline; a short one, and a lookup through
 * an index, are answered. Time is a clock that moves 1 ms at every reading, or one that a calculated
 * attribute moves: no sleeping.
 */
import { describe, expect, it } from 'vitest'
import { ManualClock, type Clock } from '../clock/clock.js'
import { thrown } from '../errors/thrown.fixture.js'
import { createDatastore } from '../orda/objects/datastore.js'
import type { ModelJson } from '../schema/model-json.js'
import { BUDGET_STEP, currentBudget, outsideBudget, spend, withBudget } from './budget.js'

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Doc',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'body', type: 'string' },
        { name: 'size', type: 'number' },
        { name: 'slow', kind: 'calculated', type: 'number' },
      ],
    },
  ],
}

const N = 100_000

/** A clock that moves 1 ms each time it is read. */
class TickingClock implements Clock {
  reads = 0
  constructor(private t = Date.UTC(2024, 0, 1)) {}
  now(): number {
    this.reads++
    return this.t++
  }
}

function store(clock: Clock, onSlow: () => void = () => {}) {
  const rows = Array.from({ length: N }, (_, i) => ({
    ID: i + 1,
    body: `doc ${i % 97} body`,
    size: (i * 7919) % 1000,
  }))
  return createDatastore(MODEL, {
    clock,
    data: { Doc: rows },
    calculated: {
      Doc: {
        slow: (e) => {
          onSlow()
          return (e.get('size') as number) * 2
        },
      },
    },
  })
}

describe('a query time budget', () => {
  it('stops a long scan with QueryBudgetExceeded (9090, limit) and a clear message', () => {
    const clock = new TickingClock()
    const ds = store(clock)
    const Doc = ds.dataClass('Doc')
    // 100,000 rows: 25 readings of the clock, 25 ms, past a 10 ms budget.
    const e = thrown(() => ds.withBudget(10, () => Doc.query('body = "@body@"').length))
    expect(e.name).toBe('QueryBudgetExceeded')
    expect(e.errCode).toBe(9090)
    expect(e.category).toBe('limit')
    expect(e.message).toBe(
      'The query took more than 10 ms and was stopped: narrow the $filter or add an index',
    )
  })

  it('answers the same scan within a larger budget, and with none', () => {
    const clock = new TickingClock()
    const ds = store(clock)
    const Doc = ds.dataClass('Doc')
    expect(ds.withBudget(1000, () => Doc.query('body = "@body@"').length)).toBe(N)
    expect(Doc.query('body = "@body@"').length).toBe(N)
    expect(ds.withBudget(0, () => Doc.query('size > 10').length)).toBeGreaterThan(0)
    expect(ds.withBudget(Infinity, () => Doc.query('size > 10').length)).toBeGreaterThan(0)
  })

  it('never stops a lookup by key or a short scan, whatever the budget', () => {
    const clock = new TickingClock()
    const ds = store(clock)
    const Doc = ds.dataClass('Doc')
    // Else the key's index is built by the query that needs it first, a pause the clock times
    // (outsideBudget): two more readings.
    ds.buildIndexes()
    const reads = clock.reads
    expect(ds.withBudget(1, () => Doc.get(5)?.get('ID'))).toBe(5)
    expect(ds.withBudget(1, () => Doc.query('ID = 5').length)).toBe(1)
    expect(ds.withBudget(1, () => Doc.query('ID < 100 and body = "@7 @"').length)).toBe(9)
    // One reading to set the deadline each time, none while working.
    expect(clock.reads - reads).toBe(3)
  })

  it('counts calls of a calculated attribute: a slow one is stopped after a few rows', () => {
    const clock = new ManualClock(0)
    let calls = 0
    // Each call takes 10 ms.
    const ds = store(clock, () => {
      calls++
      clock.advance(10)
    })
    const Doc = ds.dataClass('Doc')
    const e = thrown(() => ds.withBudget(500, () => Doc.query('slow > 1').length))
    expect(e.name).toBe('QueryBudgetExceeded')
    // The clock is read every 4,096 / 64 = 64 calls (the 64th is counted before it runs): stopped
    // at the first reading past 500 ms, not after the 100,000 rows.
    expect(calls).toBe(BUDGET_STEP / 64 - 1)
  })

  it('stops an ordering and an aggregate of a large selection', () => {
    const clock = new TickingClock()
    const ds = store(clock)
    const Doc = ds.dataClass('Doc')
    const all = Doc.query('size >= 0') // no budget: made before
    expect(thrown(() => ds.withBudget(2, () => all.orderBy('body').at(0))).name).toBe(
      'QueryBudgetExceeded',
    )
    expect(thrown(() => ds.withBudget(2, () => all.sum('slow'))).name).toBe('QueryBudgetExceeded')
    expect(ds.withBudget(10_000, () => all.sum('size'))).toBeGreaterThan(0)
  })

  it('does not count the time of work run outside it (an index built on its first use)', () => {
    const clock = new ManualClock(0)
    const outer = { deadline: 200, clock, ms: 200 }
    withBudget(outer, () => {
      withBudget({ deadline: 100, clock, ms: 100 }, () => {
        outsideBudget(() => {
          expect(currentBudget()).toBeUndefined()
          clock.advance(1000)
        })
        expect(currentBudget()!.ms).toBe(100)
        spend(BUDGET_STEP) // 1,000 ms on the clock, none of them the budget's
        clock.advance(150)
        expect(thrown(() => spend(BUDGET_STEP)).errCode).toBe(9090)
      })
      // The outer budget did not count that pause either: 1,150 ms on the clock, 150 its own.
      spend(BUDGET_STEP)
      clock.advance(100)
      expect(thrown(() => spend(BUDGET_STEP)).errCode).toBe(9090)
    })
  })

  it('a budget in the query options stops that query only', () => {
    const clock = new TickingClock()
    const ds = store(clock)
    const Doc = ds.dataClass('Doc')
    expect(thrown(() => Doc.run('body = "@body@"', { budgetMs: 5 })).errCode).toBe(9090)
    expect(Doc.run('body = "@body@"', { budgetMs: 1000 }).selection.length).toBe(N)
  })

  it('restores the previous budget on return and on throw; a nested one never lengthens it', () => {
    const clock = new ManualClock(0)
    const outer = { deadline: 100, clock, ms: 100 }
    const inner = { deadline: 50, clock, ms: 50 }
    const later = { deadline: 500, clock, ms: 500 }
    expect(currentBudget()).toBeUndefined()
    withBudget(outer, () => {
      expect(currentBudget()).toBe(outer)
      withBudget(later, () => expect(currentBudget()).toBe(outer))
      withBudget(undefined, () => expect(currentBudget()).toBe(outer))
      expect(() =>
        withBudget(inner, () => {
          expect(currentBudget()).toBe(inner)
          throw new Error('boom')
        }),
      ).toThrow('boom')
      expect(currentBudget()).toBe(outer)
      clock.advance(101)
      expect(() => spend(BUDGET_STEP)).toThrow(/more than 100 ms/)
      expect(currentBudget()).toBe(outer)
    })
    expect(currentBudget()).toBeUndefined()
    spend(10 * BUDGET_STEP) // no budget: nothing happens
  })

  it('leaves no write half-done: a delete of a selection whose ordering runs out is cancelled', () => {
    const clock = new TickingClock()
    const ds = store(clock)
    const Doc = ds.dataClass('Doc')
    const some = Doc.query('size < 500').orderBy('body')
    const before = Doc.all().length
    expect(thrown(() => ds.withBudget(1, () => some.dropOrFail())).name).toBe('QueryBudgetExceeded')
    expect(Doc.all().length).toBe(before)
  })

  it('takes time already spent off the budget: all of it, and a query stops before its first rows', () => {
    const clock = new ManualClock(0)
    let calls = 0
    const ds = store(clock, () => calls++)
    const Doc = ds.dataClass('Doc')
    // The clock never moves: only the time spent before counts.
    expect(ds.withBudget(100, () => Doc.query('size < 500').length, 99)).toBe(N / 2)
    expect(thrown(() => ds.withBudget(100, () => Doc.query('slow < 500'), 150)).errCode).toBe(9090)
    expect(calls).toBe(0)
    // A read by key spends nothing: it still answers.
    expect(ds.withBudget(100, () => Doc.get(5)?.get('ID'), 150)).toBe(5)
  })
})
