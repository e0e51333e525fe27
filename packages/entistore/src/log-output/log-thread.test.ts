/**
 * The logging thread's loop, run here in the test's own thread over a ring the test fills: it
 * writes each entry's line and each text line in order, says how many entries the serving side
 * dropped, sleeps when nothing comes and wakes on the next record, and writes everything when told
 * to stop, then says it is done.
 */
import { describe, expect, it } from 'vitest'
import { requestLogLine, type RequestLogEntry } from '../serve/request-log.js'
import { Control, EntryRing } from './entry-ring.js'
import { droppedLine } from './line-batch.js'
import { runLogThread } from './log-thread.js'

const entry = (n: number): RequestLogEntry => ({
  at: Date.UTC(2026, 10, 27),
  method: 'GET',
  target: `/rest/Item(${n})`,
  status: 200,
  ms: 0.25,
  bytes: 100 + n,
  user: undefined,
  complete: true,
})

/** An output keeping what is written, and how many writes. */
function capture() {
  let text = ''
  let writes = 0
  const write = (data: Uint8Array): number => {
    writes++
    text += Buffer.from(data).toString()
    return data.length
  }
  return { write, lines: () => text.split('\n').slice(0, -1), writes: () => writes }
}

const until = async (done: () => boolean, ms = 5000): Promise<void> => {
  for (const end = Date.now() + ms; !done();) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 2))
  }
}

function started(flushMs = 2) {
  const ring = EntryRing.create(EntryRing.MIN_UNITS)
  const out = capture()
  runLogThread(
    { ring: ring.buffers, fd: -1, format: 'text', worker: 3, maxWrite: 4096, flushMs },
    out.write,
  )
  const stop = async (): Promise<void> => {
    Atomics.store(ring.control, Control.STOP, 1)
    await until(() => Atomics.load(ring.control, Control.DONE) === 1)
  }
  return { ring, out, stop }
}

describe('runLogThread', () => {
  it('writes the lines of the entries and the text lines, in the order put', async () => {
    const { ring, out, stop } = started()
    ring.putEntry(entry(1))
    ring.putText('Entistore serving x')
    ring.putEntry(entry(2))
    await until(() => out.lines().length === 3)
    expect(out.lines()).toEqual([
      requestLogLine(entry(1), 'text', 3),
      'Entistore serving x',
      requestLogLine(entry(2), 'text', 3),
    ])
    expect(out.lines()[0]).toBe('[worker 3] GET /rest/Item(1) 200 0.25 ms 101 B -')
    await stop()
  })

  it('says how many entries the serving side dropped, where they are missing', async () => {
    const { ring, out, stop } = started()
    ring.putEntry(entry(1))
    Atomics.add(ring.control, Control.DROPPED, 7)
    await until(() => out.lines().length === 2)
    expect(out.lines()[1]).toBe(droppedLine(7))
    expect(Atomics.load(ring.control, Control.DROPPED)).toBe(0)
    await stop()
  })

  it('sleeps once nothing comes, and the next record wakes it', async () => {
    const { ring, out, stop } = started(1)
    await until(() => Atomics.load(ring.control, Control.SLEEPING) === 1)
    ring.putEntry(entry(5))
    expect(Atomics.load(ring.control, Control.SLEEPING)).toBe(0)
    await until(() => out.lines().length === 1)
    expect(out.lines()).toEqual([requestLogLine(entry(5), 'text', 3)])
    await stop()
  })

  it('told to stop, writes everything left at once, then says done', async () => {
    const { ring, out, stop } = started(200)
    for (let i = 0; i < 300; i++) ring.putEntry(entry(i))
    await stop()
    expect(out.lines()).toHaveLength(300)
    expect(out.lines()[299]).toBe(requestLogLine(entry(299), 'text', 3))
    // Stopped: what comes after is not read.
    ring.putEntry(entry(1000))
    await new Promise((r) => setTimeout(r, 250))
    expect(out.lines()).toHaveLength(300)
  })
})
