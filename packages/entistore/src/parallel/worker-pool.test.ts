// The worker pool (worker-pool.ts): its answers are the main thread's, the main loop keeps
// turning while it works, and its cancels, wanted(), fairness, errors and dead threads hold.
// Everything is proven by counting (turns, parts started, rows done), never by wall time.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { KernelCancelled, partsOf, type KernelPart } from '@entistore/core'
import { cancelFlag, KERNELS } from '@entistore/core/kernels'
import { afterEach, describe, expect, it } from 'vitest'
import { createWorkerPool, type PartEvent, type WorkerPoolOptions } from './worker-pool.js'

const pools: ReturnType<typeof createWorkerPool>[] = []
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()))
})

/** A pool closed after the test, and the part events it told, in order. */
function poolOf(options: WorkerPoolOptions = {}) {
  const events: PartEvent[] = []
  const waiters: (() => void)[] = []
  const pool = createWorkerPool({
    ...options,
    onPart: (event) => {
      events.push(event)
      options.onPart?.(event)
      for (const wake of waiters.splice(0)) wake()
    },
  })
  pools.push(pool)
  const starts = () => events.filter((event) => event.kind === 'start')
  const ends = () => events.filter((event) => event.kind === 'end')
  /** Resolves once every part started has ended. */
  const settled = async () => {
    while (ends().length < starts().length) await new Promise<void>((wake) => waiters.push(wake))
  }
  return { pool, events, starts, ends, settled }
}

/** A column of `length` doubles over a SharedArrayBuffer: 0.5, 1.5, 2.5 … with a NaN (null) every 10. */
function sharedColumn(length: number): Float64Array {
  const column = new Float64Array(new SharedArrayBuffer(length * 8))
  for (let i = 0; i < length; i++) column[i] = i % 10 === 9 ? NaN : (i % 1000) + 0.5
  return column
}

const onMain = (column: Float64Array, parts: readonly KernelPart[]) =>
  parts.map(({ from, to }) => KERNELS['sumColumn']!({ column } as never, from, to, cancelFlag()))

const MILLION = sharedColumn(1_000_000)
// Parts of 2M rows: a kernel reading one runs for milliseconds, far longer than the few statements
// between its dispatch and a cancel, so the flag is raised while (or before) it reads.
const BIG = sharedColumn(8_000_000)

describe('the worker pool', () => {
  it('answers as the same kernel on the main thread: sumColumn over 1M values, 8 parts, 2 threads', async () => {
    const { pool, starts } = poolOf({ threads: 2 })
    const parts = partsOf(MILLION.length, 2, 125_000)
    expect(parts).toHaveLength(8)
    const sums = await pool.run<number>('sumColumn', { column: MILLION }, parts).result
    expect(sums).toEqual(onMain(MILLION, parts))
    expect(starts()).toHaveLength(8)
    // Both threads took parts (a thread that ends its part takes the next).
    expect(
      new Set(starts().map((event) => event.kind === 'start' && event.thread.threadId)).size,
    ).toBe(2)
  })

  it('shares a SharedArrayBuffer column: the worker reads what the main thread wrote after sending it', async () => {
    const column = new Float64Array(new SharedArrayBuffer(8 * 1000))
    // The part is posted (its arguments cloned) before the hook runs: a copy would sum zeros.
    const { pool } = poolOf({
      threads: 1,
      onPart: (event) => event.kind === 'start' && column.fill(2),
    })
    const [sum] = await pool.run<number>('sumColumn', { column }, [{ from: 0, to: 1000 }]).result
    expect(sum).toBe(2000)
  })

  it("keeps the main thread's event loop turning while a worker sums 8M values", async () => {
    const { pool } = poolOf({ threads: 1 })
    let turns = 0
    let running = true
    const result = pool.run<number>('sumColumn', { column: BIG }, [
      { from: 0, to: BIG.length },
    ]).result
    const stop = () => (running = false)
    result.then(stop, stop)
    const tick = () => {
      turns++
      if (running) setImmediate(tick)
    }
    setImmediate(tick)
    const [sum] = await result
    expect(sum).toBe(onMain(BIG, [{ from: 0, to: BIG.length }])[0])
    // The same sum on the main thread would let no turn in until it ended.
    expect(turns).toBeGreaterThan(20)
  })

  it("stops a running part at its kernel's next check on cancel, and starts no other part", async () => {
    const { pool, starts, ends, settled } = poolOf({ threads: 2 })
    const parts = partsOf(BIG.length, 1, 2_000_000) // 4 parts of 2M rows
    const run = pool.run<number>('sumColumn', { column: BIG }, parts)
    run.cancel()
    await expect(run.result).rejects.toBeInstanceOf(KernelCancelled)
    await settled()
    expect(starts()).toHaveLength(2)
    for (const end of ends()) {
      expect(end).toMatchObject({ kind: 'end', outcome: 'stopped' })
      if (end.kind === 'end') expect(end.rowsDone).toBeLessThan(2_000_000)
    }
  })

  it('asks wanted() before each part: false cancels the run, and no later part starts', async () => {
    const { pool, starts, settled } = poolOf({ threads: 1 })
    let asked = 0
    const run = pool.run('sumColumn', { column: MILLION }, partsOf(MILLION.length, 2, 125_000), {
      wanted: () => ++asked <= 3,
    })
    await expect(run.result).rejects.toBeInstanceOf(KernelCancelled)
    await settled()
    expect(asked).toBe(4)
    expect(starts().map((event) => event.part)).toEqual([0, 1, 2])
  })

  it("takes clients' parts in turn: one client's three runs do not starve another's one", async () => {
    const { pool, starts } = poolOf({ threads: 1 })
    const parts = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ from: i * 10, to: i * 10 + 10 }))
    const runs = [
      ...[1, 2, 3].map(() => pool.run('sumColumn', { column: MILLION }, parts(4), { client: 'a' })),
      pool.run('sumColumn', { column: MILLION }, parts(2), { client: 'b' }),
    ]
    await Promise.all(runs.map((run) => run.result))
    // a's first part started at once, before b asked; then b joined the line behind a.
    expect(starts().map((event) => event.client)).toEqual([
      ...['a', 'a', 'b', 'a', 'b'],
      ...Array<string>(9).fill('a'),
    ])
  })

  it("rejects a run with a clear message for an unknown kernel or a kernel's own throw, and runs on", async () => {
    const { pool } = poolOf({ threads: 1 })
    await expect(pool.run('sumColunm', {}, [{ from: 0, to: 1 }]).result).rejects.toThrow(
      "no kernel named 'sumColunm' (kernels: sumColumn",
    )
    await expect(pool.run('toString', {}, [{ from: 0, to: 1 }]).result).rejects.toThrow(
      "no kernel named 'toString'",
    )
    // sumColumn without its column: the TypeError it throws in the worker, name and message.
    const failed = pool.run('sumColumn', null, [{ from: 0, to: 1 }]).result
    await expect(failed).rejects.toThrow(TypeError)
    await expect(failed).rejects.toThrow(/column/)
    const [sum] = await pool.run<number>('sumColumn', { column: MILLION }, [{ from: 0, to: 10 }])
      .result
    expect(sum).toBe(0.5 + 1.5 + 2.5 + 3.5 + 4.5 + 5.5 + 6.5 + 7.5 + 8.5)
  })

  it('replaces a thread that dies; the run whose part it held fails saying so', async () => {
    let kill = false
    const { pool, starts } = poolOf({
      threads: 1,
      onPart: (event) => {
        if (kill && event.kind === 'start') void event.thread.terminate()
      },
    })
    const part = [{ from: 0, to: 10 }]
    await pool.run('sumColumn', { column: MILLION }, part).result
    kill = true
    await expect(
      pool.run('sumColumn', { column: MILLION }, partsOf(1_000_000, 1)).result,
    ).rejects.toThrow(
      /a worker thread of the pool stopped \(exit code 1\) while it ran part 1 of 4 of kernel 'sumColumn'/,
    )
    kill = false
    const [sum] = await pool.run<number>('sumColumn', { column: MILLION }, part).result
    expect(sum).toBe(40.5)
    const threads = starts().map((event) => event.kind === 'start' && event.thread.threadId)
    expect(threads).toHaveLength(3)
    expect(threads[2]).not.toBe(threads[1])
  })

  it('stops, rather than starting threads in a loop, when its worker cannot load', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pool-'))
    const entry = pathToFileURL(join(dir, 'broken.mjs'))
    writeFileSync(entry, "throw new Error('no kernels here')")
    try {
      const { pool, starts } = poolOf({ threads: 2, entry })
      await expect(
        pool.run('sumColumn', { column: MILLION }, partsOf(1_000_000, 2)).result,
      ).rejects.toThrow('no kernels here')
      await expect(
        pool.run('sumColumn', { column: MILLION }, [{ from: 0, to: 1 }]).result,
      ).rejects.toThrow("the worker pool's threads cannot start: no kernels here")
      expect(starts()).toHaveLength(2)
    } finally {
      rmSync(dir, { recursive: true })
    }
  })

  it('has cores - 1 threads by default, at least 1, and refuses a bad count', () => {
    const { pool } = poolOf()
    expect(pool.threads).toBe(Math.max(1, availableParallelism() - 1))
    expect(() => createWorkerPool({ threads: 0 })).toThrow(RangeError)
    expect(() => createWorkerPool({ threads: 1.5 })).toThrow(/whole number of threads/)
  })

  it('cancels the runs still going on close, and refuses runs after', async () => {
    const { pool } = poolOf({ threads: 1 })
    const going = pool.run('sumColumn', { column: BIG }, partsOf(BIG.length, 1))
    await pool.close()
    await expect(going.result).rejects.toBeInstanceOf(KernelCancelled)
    await expect(
      pool.run('sumColumn', { column: BIG }, [{ from: 0, to: 1 }]).result,
    ).rejects.toThrow('the worker pool is closed')
  })

  it('leaves the process free to exit once idle, unclosed, from the built package', () => {
    const script = `
      import { createWorkerPool } from 'entistore'
      const column = new Float64Array(new SharedArrayBuffer(80)).fill(1)
      const pool = createWorkerPool({ threads: 2 })
      const [a, b] = await pool.run('sumColumn', { column }, [{ from: 0, to: 4 }, { from: 4, to: 10 }]).result
      console.log(a + b)`
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(out.trim()).toBe('10')
  })
})
