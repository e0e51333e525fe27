/**
 * The process's line of slices: one slice of any work a turn of the event loop, first come first
 * served, each in the async context of the code that queued it; every driver of slices in core
 * (workInTurns) queues there, so two works running at once take one turn each, in turn.
 */
import { describe, expect, it } from 'vitest'
import { asyncScope } from '../access/async-scope.js'
import { SliceLine, sliceLine } from './slice-line.js'
import type { Work } from './slices.js'
import { workInTurns } from './work-in-turns.js'

// A turn the test runs by hand: the functions asked for, in order.
function manual() {
  const asked: (() => void)[] = []
  return { turn: (fn: () => void) => void asked.push(fn), asked }
}

describe('SliceLine', () => {
  it('runs one slice a turn, the jobs that go on in turn (first come, first served)', () => {
    const { turn, asked } = manual()
    const line = new SliceLine(turn)
    const ran: string[] = []
    const job = (name: string, left: number) => {
      const slice = (): void => {
        ran.push(name)
        if (--left > 0) line.later(slice)
      }
      line.later(slice)
    }
    job('a', 3)
    job('b', 1)
    job('c', 2)
    // However many wait, one turn is asked at a time.
    expect(asked).toHaveLength(1)
    expect(line.waiting).toBe(3)
    let turns = 0
    while (asked.length > 0) {
      asked.shift()!()
      turns++
      expect(asked.length).toBeLessThanOrEqual(1)
    }
    expect(ran).toEqual(['a', 'b', 'c', 'a', 'c', 'a'])
    expect(turns).toBe(6)
    expect(line.ran).toBe(6)
    expect(line.waiting).toBe(0)
  })

  it('runs what `first` was given before the next slice, once however often it was given', () => {
    const { turn, asked } = manual()
    const line = new SliceLine(turn)
    const ran: string[] = []
    line.later(() => ran.push('slice 1'))
    line.later(() => ran.push('slice 2'))
    const reply = (): void => void ran.push('reply')
    // Asked while the slices wait (a turn's poll phase answering reads), twice.
    line.first(reply)
    line.first(reply)
    asked.shift()!()
    expect(ran).toEqual(['reply', 'slice 1'])
    // Given nothing since, the next slice runs alone; `runFirst` with nothing asked does nothing.
    line.runFirst()
    asked.shift()!()
    expect(ran).toEqual(['reply', 'slice 1', 'slice 2'])
  })

  it('runs each job in the async context of the code that queued it', () => {
    const { turn, asked } = manual()
    const line = new SliceLine(turn)
    const scope = asyncScope<string>()
    const seen: (string | undefined)[] = []
    scope.run('first', () => line.later(() => seen.push(scope.get())))
    scope.run('second', () => line.later(() => seen.push(scope.get())))
    line.later(() => seen.push(scope.get()))
    // The turns run in another context: the one that asked for the first turn is not the jobs'.
    scope.run('elsewhere', () => {
      while (asked.length > 0) asked.shift()!()
    })
    expect(seen).toEqual(['first', 'second', undefined])
  })

  it('goes on after a job that throws', () => {
    const { turn, asked } = manual()
    const line = new SliceLine(turn)
    const ran: number[] = []
    line.later(() => {
      throw new Error('a job’s own bug')
    })
    line.later(() => ran.push(2))
    expect(() => asked.shift()!()).toThrow('a job’s own bug')
    expect(asked).toHaveLength(1)
    asked.shift()!()
    expect(ran).toEqual([2])
  })

  it('keeps its order over many turns (its queue compacted as it goes)', () => {
    const { turn, asked } = manual()
    const line = new SliceLine(turn)
    const ran: number[] = []
    for (let i = 0; i < 500; i++) line.later(() => ran.push(i))
    for (let i = 0; i < 250; i++) asked.shift()!()
    for (let i = 500; i < 700; i++) line.later(() => ran.push(i))
    while (asked.length > 0) asked.shift()!()
    expect(ran).toEqual(Array.from({ length: 700 }, (_, i) => i))
  })
})

describe('the process’s line, as work in turns meets it', () => {
  // A clock 1 ms later at each reading: a slice of 1 ms is one step.
  const clock = (() => {
    let t = 0
    return { now: () => ++t }
  })()
  function* steps(n: number): Work<number> {
    for (let i = 0; i < n; i++) yield
    return n
  }
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

  it('gives two works running at once one slice a turn between them, not one each', async () => {
    const a = workInTurns(steps(6), clock, 1)
    const b = workInTurns(steps(6), clock, 1)
    expect(a).toBeInstanceOf(Promise)
    expect(b).toBeInstanceOf(Promise)
    expect(sliceLine.waiting).toBe(2)
    // Each turn of the event loop (this test's own immediate, queued after the line's) has run
    // one slice of the two works, whose other is still waiting.
    for (let i = 0; i < 4; i++) {
      const before = sliceLine.ran
      await turn()
      expect(sliceLine.ran - before).toBe(1)
    }
    expect(await Promise.all([a, b])).toEqual([6, 6])
  })
})
