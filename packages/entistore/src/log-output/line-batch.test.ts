/**
 * The request log's writer: lines gathered and written in batches, one write at a time, each write
 * whole lines and at most 4096 bytes (what a pipe the workers share delivers whole); a cap on what
 * waits, said in the log where lines are missing; nothing lost when the process ends.
 */
import { describe, expect, it } from 'vitest'
import { shopFiles, startCli } from '../persist/cli-process.fixture.js'
import { linesOfExitingScript } from './exiting-script.fixture.js'
import { batchedLines, droppedLine, MAX_WRITE, type LineBatchOptions } from './line-batch.js'

/** A writer on a fake output whose writes, timers and exit the test holds. */
function held(options: Omit<LineBatchOptions, 'schedule' | 'onExit'> = {}, abortable = false) {
  const writes: string[] = []
  const synced: string[] = []
  const pending: ((error: NodeJS.ErrnoException | null, written: number) => void)[] = []
  const timers: (() => void)[] = []
  let exit!: () => void
  const log = batchedLines(
    {
      write: (data, done) => {
        writes.push(data.toString())
        pending.push((error, written) =>
          done(error, error === null && written === 0 ? data.length : written),
        )
      },
      writeSync: (data) => {
        synced.push(data.toString())
        return data.length
      },
      // A sink whose writes, not started yet, it takes back (fdSink's, within the turn).
      ...(abortable ? { abort: () => pending.splice(0).length > 0 } : {}),
    },
    { ...options, schedule: (flush) => timers.push(flush), onExit: (f) => (exit = f) },
  )
  return {
    log,
    writes,
    synced,
    /** Runs the timers set so far. */
    tick: () => timers.splice(0).forEach((f) => f()),
    /** Tells the writer that the oldest write is done. */
    complete: () => pending.shift()!(null, 0),
    /** Tells the writer that the oldest write took `bytes`, the output then full (EAGAIN). */
    full: (bytes: number) =>
      bytes === 0
        ? pending.shift()!(Object.assign(new Error('full'), { code: 'EAGAIN' }), 0)
        : pending.shift()!(null, bytes),
    inFlight: () => pending.length,
    exit: () => exit(),
  }
}

describe('batchedLines', () => {
  it('writes the lines gathered meanwhile in one write, never at once, one write at a time', () => {
    const w = held()
    w.log('GET /a 200 0.10 ms 2 B -')
    w.log('GET /b 404 0.20 ms 3 B ada')
    expect(w.writes).toEqual([])
    w.tick()
    expect(w.writes).toEqual(['GET /a 200 0.10 ms 2 B -\nGET /b 404 0.20 ms 3 B ada\n'])
    // While that write is under way, the next lines wait for it, then go out together.
    w.log('GET /c 200 0.30 ms 4 B -')
    w.tick()
    w.log('GET /d 200 0.40 ms 5 B -')
    w.tick()
    expect(w.writes).toHaveLength(1)
    // Its end alone writes nothing: the lines still gathering wait for the next timer, or a
    // busy server would write again for every line or two.
    w.complete()
    w.log('GET /e 200 0.50 ms 6 B -')
    expect(w.writes).toHaveLength(1)
    w.tick()
    expect(w.writes[1]).toBe(
      'GET /c 200 0.30 ms 4 B -\nGET /d 200 0.40 ms 5 B -\nGET /e 200 0.50 ms 6 B -\n',
    )
    w.complete()
    expect(w.inFlight()).toBe(0)
  })

  it('never writes more than 4096 bytes at once, nor a piece of a line, and keeps their order', () => {
    const w = held()
    // Multi-byte characters count as the bytes they take.
    const lines = Array.from({ length: 100 }, (_, i) => `GET /rest/${'é'.repeat(40)}${i} 200`)
    for (const line of lines) w.log(line)
    // A full write's worth goes out without waiting for the timer.
    expect(w.writes).toHaveLength(1)
    // The full ones follow each other; the last, partial, waits for the timer.
    while (w.inFlight() > 0) w.complete()
    w.tick()
    w.complete()
    expect(w.writes.length).toBeGreaterThan(1)
    for (const text of w.writes) {
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_WRITE)
      expect(text.endsWith('\n')).toBe(true)
    }
    expect(w.writes.join('')).toBe(lines.map((l) => `${l}\n`).join(''))
    // A line longer than a write goes alone, whole.
    const long = `GET /${'x'.repeat(5000)}`
    w.log('GET /before')
    w.log(long)
    w.log('GET /after')
    w.tick()
    while (w.inFlight() > 0) w.complete()
    w.tick()
    w.complete()
    expect(w.writes.slice(-3)).toEqual(['GET /before\n', `${long}\n`, 'GET /after\n'])
  })

  it('past its cap, drops lines and says how many once, where they are missing', () => {
    const w = held({ maxBuffered: 250 })
    const line = (i: number) => `GET /rest/T(${i}) 200 0.10 ms 2 B -` // 33 bytes with its newline
    for (let i = 0; i < 10; i++) w.log(line(i))
    w.tick()
    // Only seven of the ten lines fit under the cap while the output has taken none.
    expect(w.writes).toEqual([[0, 1, 2, 3, 4, 5, 6].map((i) => `${line(i)}\n`).join('')])
    w.complete()
    w.log(line(10))
    w.log(line(11))
    w.tick()
    expect(w.writes[1]).toBe(`${droppedLine(3)}\n${line(10)}\n${line(11)}\n`)
    w.complete()
    w.log(line(12))
    w.tick()
    expect(w.writes[2]).toBe(`${line(12)}\n`)
    // A line of the command itself (`always`) is never dropped: it comes after the drops said.
    for (let i = 0; i < 10; i++) w.log(line(i))
    w.log('stopping', true)
    w.complete()
    w.tick()
    const kept = [0, 1, 2, 3, 4, 5].map((i) => `${line(i)}\n`).join('')
    expect(w.writes[3]).toBe(`${kept}${droppedLine(4)}\nstopping\n`)
  })

  it('at exit, writes at once what no write has taken yet, the drops said', () => {
    const w = held({ maxBuffered: 60 })
    w.log('GET /a 200 0.10 ms 2 B -')
    w.tick()
    w.log('GET /b 200 0.10 ms 2 B -')
    w.log('GET /c 200 0.10 ms 2 B -')
    w.exit()
    expect(w.writes).toEqual(['GET /a 200 0.10 ms 2 B -\n'])
    expect(w.synced).toEqual([`GET /b 200 0.10 ms 2 B -\n${droppedLine(1)}\n`])
  })

  it('at exit, writes first a write under way that the sink takes back, then the rest, in order', () => {
    const w = held({ maxWrite: 30 }, true)
    w.log('GET /a 200 0.10 ms 2 B -')
    w.log('GET /b 200 0.10 ms 2 B -')
    // The first line's batch is full: its write is under way, not started; the second waits.
    expect(w.inFlight()).toBe(1)
    w.exit()
    expect(w.synced).toEqual(['GET /a 200 0.10 ms 2 B -\n', 'GET /b 200 0.10 ms 2 B -\n'])
  })

  it('at exit, writes first what a full output left of a write, then the rest', () => {
    const w = held({ maxWrite: 30 })
    w.log('GET /a 200 0.10 ms 2 B -')
    w.log('GET /b 200 0.10 ms 2 B -')
    // The output takes 4 bytes of the first batch, then says "not now": the rest waits a retry.
    w.full(4)
    w.full(0)
    expect(w.inFlight()).toBe(0)
    w.exit()
    expect(w.synced).toEqual(['/a 200 0.10 ms 2 B -\n', 'GET /b 200 0.10 ms 2 B -\n'])
  })
})

describe('the request log of a process that ends', { timeout: 30_000 }, () => {
  const { model, data } = shopFiles('line-batch', ['pen'])

  it('SIGTERM: serve stops and every request answered has its line', async () => {
    const cli = await startCli(['serve', '-m', model, '-d', data, '--port', '0', '--no-explorer'])
    const n = 400
    for (let i = 0; i < n; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, async () => (await fetch(`${cli.url}/rest/Item(1)`)).text()),
      )
    cli.child.kill('SIGTERM')
    expect((await cli.exited).code).toBe(0)
    expect(cli.stdout().match(/^GET \/rest\/Item\(1\) 200 /gm)).toHaveLength(n)
  })

  it('process.exit right after the lines: none lost', () => {
    const lines = linesOfExitingScript(`
      import { linesOfExitingScript } from './exiting-script.fixture.js'
import { batchedLines, fdSink } from './line-batch.ts'
      const log = batchedLines(fdSink(1))
      for (let i = 0; i < 5000; i++) log('GET /rest/T(' + i + ') 200 0.10 ms 2 B -')
      process.exit(0)`)
    expect(lines).toHaveLength(5000)
    expect(lines.every((l, i) => l === `GET /rest/T(${i}) 200 0.10 ms 2 B -`)).toBe(true)
  })
})
