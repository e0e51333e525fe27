/**
 * FairTurns with jobs that wait outside the thread (issue 65): a slice that returns a promise
 * takes its job out of its client's line until it settles. Turns are run by the test and counted.
 */
import { describe, expect, it } from 'vitest'
import { workInTurns } from '@entistore/core'
import { FairTurns, type Slice } from './fair-turns.js'
import { flush, settled } from './manual-turns.fixture.js'

function gate(): { promise: Promise<void>; open: () => void; fail: (e: unknown) => void } {
  let open!: () => void
  let fail!: (e: unknown) => void
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve
    fail = reject
  })
  return { promise, open, fail }
}

/** A job whose slices say `outcomes` in turn (a function: called then), counted in `log`. */
function job(name: string, log: string[], outcomes: (Slice | (() => Slice))[]): () => Slice {
  let i = 0
  return () => {
    log.push(name)
    const o = outcomes[i++]!
    return typeof o === 'function' ? o() : o
  }
}

function setup() {
  const turns: (() => void)[] = []
  const fair = new FairTurns((fn) => turns.push(fn))
  const runAll = async (): Promise<number> => {
    let ran = 0
    while (turns.length > 0) {
      turns.shift()!()
      ran++
      await flush()
    }
    return ran
  }
  return { turns, fair, runAll }
}

describe('FairTurns with parked jobs', () => {
  it('spends no turn on a parked job, and takes it back in its order once its wait settles', async () => {
    const { turns, fair, runAll } = setup()
    const log: string[] = []
    const wait = gate()
    const a1 = settled(fair.run('a', job('a1', log, [false, wait.promise, true]), 0))
    const a2 = settled(fair.run('a', job('a2', log, [false, false, false, true]), 1))
    const b = settled(fair.run('b', job('b', log, [false, false, true]), 2))
    // a1 parks at its second slice; a2 and b go on, one slice a turn, and then nothing is queued.
    expect(await runAll()).toBe(9)
    expect(log).toEqual(['a1', 'b', 'a1', 'b', 'a2', 'b', 'a2', 'a2', 'a2'])
    expect([a1.done, a2.done, b.done]).toEqual([false, true, true])
    expect(fair.parked).toBe(1)
    expect(fair.waiting).toBe(0)
    expect(turns.length).toBe(0)
    expect(fair.slices).toBe(9)
    wait.open()
    await flush()
    expect(fair.parked).toBe(0)
    expect(fair.waiting).toBe(1)
    expect(await runAll()).toBe(1)
    expect(a1.done).toBe(true)
    expect(fair.slices).toBe(10)
  })

  it('comes back before its client’s later jobs', async () => {
    const { turns, fair, runAll } = setup()
    const log: string[] = []
    const wait = gate()
    const a1 = settled(fair.run('a', job('a1', log, [wait.promise, true]), 0))
    void fair.run('a', job('a2', log, [false, false, false, true]), 1)
    // a1 parks, a2 gets the next turn; then a1's wait settles: it goes first again.
    turns.shift()!()
    turns.shift()!()
    wait.open()
    await flush()
    turns.shift()!()
    await flush()
    expect(a1.done).toBe(true)
    expect(await runAll()).toBe(3)
    expect(log).toEqual(['a1', 'a2', 'a1', 'a2', 'a2', 'a2'])
  })

  it('waits before its first slice when run parked, with no turn scheduled meanwhile', async () => {
    const { turns, fair, runAll } = setup()
    const log: string[] = []
    const wait = gate()
    const a = settled(fair.run('a', job('a', log, [true]), 0, wait.promise))
    expect(turns.length).toBe(0)
    expect(fair.parked).toBe(1)
    wait.open()
    await flush()
    expect(await runAll()).toBe(1)
    expect(a.done).toBe(true)
  })

  it('a failed wait brings the job back: its next slice throws, the job rejects, the others go on', async () => {
    const { fair, runAll } = setup()
    const log: string[] = []
    const wait = gate()
    let failure: unknown
    const a = fair.run(
      'a',
      job('a', log, [
        wait.promise,
        () => {
          throw new Error('worker crashed')
        },
      ]),
      0,
    )
    a.catch((e: unknown) => (failure = e))
    const b = settled(fair.run('b', job('b', log, [false, false, true]), 1))
    const first = runAll()
    await flush()
    wait.fail(new Error('ignored: the slice decides'))
    await first
    await runAll()
    expect(String(failure)).toBe('Error: worker crashed')
    expect(b.done).toBe(true)
    expect(fair.waiting + fair.parked).toBe(0)
  })
})

describe('FairTurns in the process’s line', () => {
  it('takes its turns in core’s line: beside a work in turns, one slice of either a turn', async () => {
    const turns = new FairTurns()
    const log: string[] = []
    const reads = turns.run('ann', job('read', log, [false, false, false, true]), 1)
    let t = 0
    const work = workInTurns(
      (function* () {
        for (let i = 0; i < 4; i++) {
          log.push('work')
          yield
        }
        return 'saved'
      })(),
      { now: () => ++t },
      1,
    )
    expect(log).toEqual(['work'])
    for (let i = 0; i < 4; i++) {
      const before = log.length
      // This test's immediate, queued after the line's turn, runs in the same turn.
      await new Promise<void>((resolve) => setImmediate(resolve))
      expect(log.length - before).toBe(1)
    }
    await Promise.all([reads, work])
    expect(log.filter((l) => l === 'read')).toHaveLength(4)
  })
})
