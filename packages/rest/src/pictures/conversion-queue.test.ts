import { describe, expect, it } from 'vitest'
import { ConversionQueue } from './conversion-queue.js'

/** A task that ends when the test says: `end()` resolves it, `fail()` rejects it. */
function task(log: string[], name: string) {
  let end!: (value: string) => void
  let fail!: (error: Error) => void
  const run = () => {
    log.push(name)
    return new Promise<string>((resolve, reject) => {
      end = resolve
      fail = reject
    })
  }
  return { run, end: () => end(name), fail: () => fail(new Error(name)) }
}

const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('ConversionQueue', () => {
  it('runs two at once, lets three wait in the order they came, and refuses the next', async () => {
    const queue = new ConversionQueue({ maxConversions: 2, maxQueuedConversions: 3 })
    const started: string[] = []
    const tasks = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => task(started, name))
    const results = tasks.map((t) => queue.run(t.run))
    expect(started).toEqual(['a', 'b'])
    expect([queue.running, queue.waiting]).toEqual([2, 3])
    // The sixth is refused and never run.
    expect(results[5]).toBeUndefined()

    // A turn that ends, however it ends, goes to the one that has waited longest.
    tasks[1]!.fail()
    await expect(results[1]).rejects.toThrow('b')
    expect(started).toEqual(['a', 'b', 'c'])
    tasks[0]!.end()
    await expect(results[0]).resolves.toBe('a')
    expect(started).toEqual(['a', 'b', 'c', 'd'])
    expect([queue.running, queue.waiting]).toEqual([2, 1])
    // There is room to wait again.
    const g = task(started, 'g')
    const late = queue.run(g.run)
    expect(late).toBeDefined()
    for (const t of [tasks[2]!, tasks[3]!, tasks[4]!, g]) {
      await turn()
      t.end()
    }
    expect(await Promise.all([results[2], results[3], results[4], late])).toEqual([
      'c',
      'd',
      'e',
      'g',
    ])
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e', 'g'])
    expect([queue.running, queue.waiting]).toEqual([0, 0])
  })

  it('passes the turn on when a task throws before it returns its Promise', async () => {
    const queue = new ConversionQueue({ maxConversions: 1, maxQueuedConversions: 1 })
    const thrown = queue.run(() => {
      throw new Error('at once')
    })
    await expect(thrown).rejects.toThrow('at once')
    expect(queue.running).toBe(0)
    await expect(queue.run(async () => 'next')).resolves.toBe('next')
  })

  it('refuses limits that would run nothing', () => {
    expect(() => new ConversionQueue({ maxConversions: 0 })).toThrow(RangeError)
    expect(() => new ConversionQueue({ maxQueuedConversions: -1 })).toThrow(RangeError)
    expect(() => new ConversionQueue({ maxConversions: 1.5 })).toThrow(RangeError)
  })
})
