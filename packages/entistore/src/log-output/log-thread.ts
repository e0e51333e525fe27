/**
 * @module The logging thread of `entistore serve`'s request log (threaded-log.ts starts it): it
 * reads the entries the serving thread put in the ring (entry-ring.ts), makes their lines
 * (plain-line.ts for most, request-log.ts for the others) and writes them in batches of whole
 * lines with synchronous writes, which block this thread only (sync-batch.ts). It reads the ring
 * every `flushMs`, or at once when the serving thread says a line of stdout is waiting (the URL
 * line is not held back); after a while with no request it sleeps until the serving thread's
 * next record wakes it, so that an idle server's thread does not wake at all. Told to stop (the
 * process's exit), it writes everything left, then says it is done.
 */
import { writeSync } from 'node:fs'
import { requestLogLine, type RequestLogFormat } from '../serve/request-log.js'
import { Control, EntryRing, type EntryView, type RingBuffers } from './entry-ring.js'
import { droppedLine } from './line-batch.js'
import { MAX_PLAIN_LINE, writePlainLine } from './plain-line.js'
import { SyncBatch, type WriteSync } from './sync-batch.js'

/** What the logging thread is started with (its `workerData`). */
export interface LogThreadData {
  readonly ring: RingBuffers
  /** The file descriptor the lines go to (1: stdout). */
  readonly fd: number
  readonly format: RequestLogFormat
  /** The cluster worker's number under `--workers` (its lines say it). */
  readonly worker: number | undefined
  /** The most bytes of one write (see line-batch.ts). */
  readonly maxWrite: number
  /** How often the ring is read, in milliseconds. */
  readonly flushMs: number
}

/** Readings of an empty ring before the thread sleeps until woken. */
const IDLE_READINGS = 20

type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
  timeoutMs?: number,
) => { async: boolean; value: Promise<string> | string }

/**
 * Runs the thread's loop over `data`'s ring, writing with `write` (the fd's, by default);
 * resolves once told to stop and everything is written.
 */
export function runLogThread(
  data: LogThreadData,
  write: WriteSync = (bytes) => writeSync(data.fd, bytes),
): Promise<void> {
  const ring = new EntryRing(data.ring)
  const control = ring.control
  const out = new SyncBatch(write, data.maxWrite)
  const prefix = Buffer.from(data.worker === undefined ? '' : `[worker ${data.worker}] `)
  // Text lines, each part short enough, are written straight from the ring (plain-line.ts).
  const plainRoom = prefix.length + MAX_PLAIN_LINE
  const plain = data.format === 'text' && plainRoom <= out.buffer.length
  const entry = (view: EntryView): void => {
    if (plain) {
      out.room(plainRoom)
      const end = writePlainLine(view, prefix, out.buffer, out.length)
      if (end >= 0) {
        out.length = end
        return
      }
    }
    out.line(requestLogLine(view.entry(), data.format, data.worker))
  }
  // Written as soon as a reading is done: the ring was the wait.
  const read = (): void => {
    ring.drainInPlace((record) => (typeof record === 'string' ? out.line(record) : entry(record)))
    const dropped = Atomics.exchange(control, Control.DROPPED, 0)
    if (dropped > 0) out.line(droppedLine(dropped))
    out.flush()
  }
  const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync
  // Until `index` no longer holds `value` (the serving thread changed it and said so), or `ms`.
  const waitFor = async (index: Control, value: number, ms?: number): Promise<void> => {
    const waited = waitAsync(control, index, value, ms)
    if (waited.async) await waited.value
  }
  // A pending Atomics.waitAsync does not keep a thread alive: this does, until told to stop.
  const alive = setInterval(() => {}, 1 << 30)
  return (async () => {
    for (let idle = 0; ;) {
      Atomics.store(control, Control.URGENT, 0)
      const had = ring.pending()
      read()
      if (Atomics.load(control, Control.STOP) === 1) break
      idle = had ? 0 : idle + 1
      if (idle < IDLE_READINGS) {
        // The next reading in flushMs, or at once for a line said on stdout, or a stop.
        await waitFor(Control.URGENT, 0, data.flushMs)
        continue
      }
      // Nothing came for a while: asleep until the serving thread's next record (it sees
      // SLEEPING and wakes us), looked at once more after saying so, for a record put meanwhile.
      Atomics.store(control, Control.SLEEPING, 1)
      if (!ring.pending() && Atomics.load(control, Control.STOP) === 0)
        await waitFor(Control.SLEEPING, 1)
      Atomics.store(control, Control.SLEEPING, 0)
      idle = 0
    }
    clearInterval(alive)
    Atomics.store(control, Control.DONE, 1)
    Atomics.notify(control, Control.DONE)
  })()
}
