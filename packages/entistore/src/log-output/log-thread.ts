/**
 * @module The logging thread of `entistore serve`'s request log (threaded-log.ts starts it): it
 * reads the entries the serving thread put in the ring (entry-ring.ts), makes their lines
 * (request-log.ts) and writes them in batches of whole lines (line-batch.ts) with synchronous
 * writes, which block this thread only. It reads the ring every `flushMs`, or at once when the
 * serving thread says a line of stdout is waiting (the URL line is not held back); after a while
 * with no request it sleeps until the serving thread's next record wakes it, so that an idle
 * server's thread does not wake at all. Told to stop (the process's exit), it writes everything
 * left, then says it is done.
 */
import { writeSync } from 'node:fs'
import { requestLogLine, type RequestLogFormat } from '../serve/request-log.js'
import { Control, EntryRing, type RingBuffers } from './entry-ring.js'
import { batchedLines, droppedLine, type LineSink } from './line-batch.js'

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

/** Writes synchronously: this thread does nothing else meanwhile, the serving thread never waits. */
export function syncFdSink(fd: number): LineSink {
  const write = (data: Buffer): number => writeSync(fd, data)
  return {
    write: (data, done) => {
      let written: number
      try {
        written = write(data)
      } catch (e) {
        done(e as NodeJS.ErrnoException, 0)
        return
      }
      done(null, written)
    },
    writeSync: write,
  }
}

/**
 * Runs the thread's loop over `data`'s ring, writing to `sink` (the fd's, by default); resolves
 * once told to stop and everything is written.
 */
export function runLogThread(
  data: LogThreadData,
  sink: LineSink = syncFdSink(data.fd),
): Promise<void> {
  const ring = new EntryRing(data.ring)
  const control = ring.control
  let flushAll = (): void => {}
  // Written as soon as a reading is done (flushMs 0): the ring was the wait.
  const write = batchedLines(sink, {
    maxWrite: data.maxWrite,
    flushMs: 0,
    onExit: (flush) => (flushAll = flush),
  })
  const read = (): void => {
    ring.drain((record) => {
      if (typeof record === 'string') write(record, true)
      else write(requestLogLine(record, data.format, data.worker))
    })
    const dropped = Atomics.exchange(control, Control.DROPPED, 0)
    if (dropped > 0) write(droppedLine(dropped), true)
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
    flushAll()
    Atomics.store(control, Control.DONE, 1)
    Atomics.notify(control, Control.DONE)
  })()
}
