/** What a lock table tells an observer (a mirror shared with other processes follows it). */
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../clock/clock.js'
import { LockTable, type LockOwner } from './lock-table.js'

const a: LockOwner = { id: 'A', kind: 'session' }
const b: LockOwner = { id: 'B', kind: 'session' }

describe('LockTable observers', () => {
  it('are told of each lock taken and released, with why it went', () => {
    let live = true
    const t = new LockTable(new ManualClock(), (o) => o.id !== 'B' || live)
    const log: string[] = []
    const stop = t.observe({
      taken: (l) => log.push(`taken ${l.dataClass}(${l.key}) ${l.owner.id}`),
      released: (l, why) => log.push(`released ${l.dataClass}(${l.key}) ${l.owner.id} ${why}`),
    })
    t.take('Employee', 1, a)
    t.take('Employee', 1, a) // held already: nothing taken
    t.take('Employee', 1, b) // refused: nothing taken
    t.release('Employee', 1, b) // not B's: nothing released
    t.release('Employee', 1, a)
    t.take('Employee', 2, a)
    t.drop('Employee', 2)
    t.take('Employee', 3, a)
    t.take('Employee', 4, a)
    t.releaseOwner(a)
    t.take('Employee', 5, b)
    live = false
    expect(t.holder('Employee', 5)).toBeUndefined() // a dead holder's lock goes when consulted
    t.take('Employee', 6, a)
    t.clear()
    stop()
    t.take('Employee', 7, a)
    expect(log).toEqual([
      'taken Employee(1) A',
      'released Employee(1) A released',
      'taken Employee(2) A',
      'released Employee(2) A deleted',
      'taken Employee(3) A',
      'taken Employee(4) A',
      'released Employee(3) A owner',
      'released Employee(4) A owner',
      'taken Employee(5) B',
      'released Employee(5) B owner',
      'taken Employee(6) A',
      'released Employee(6) A cleared',
    ])
  })
})
