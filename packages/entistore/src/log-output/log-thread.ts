/**
 * @module The logging thread of `entistore serve`'s request log (threaded-log.ts starts it): it
 * reads the entries the serving thread put in the ring (entry-ring.ts), makes their lines
 * (request-log.ts) and writes them in batches of whole lines (line-batch.ts) with synchronous
 * writes, which block this thread only. It looks at the ring every `flushMs`; after a while with
 * no request it sleeps until the serving thread's next record wakes it, so that an idle server's
 * thread does not wake a hundred times a second. Told to stop (the process's exit), it writes
 * everything left, then says it is done.
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

/** Runs the thread's loop over `data`'s ring, writing to `sink` (the fd's, by default). */
export function runLogThread(data: LogThreadData, sink: LineSink = syncFdSink(data.fd)): void {
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
      if (record.kind === 'text') write(record.text, true)
      else write(requestLogLine(record.entry, data.format, data.worker))
    })
    const dropped = Atomics.exchange(control, Control.DROPPED, 0)
    if (dropped > 0) write(droppedLine(dropped), true)
  }
  let idle = 0
  let timer: ReturnType<typeof setInterval> | undefined
  // A pending Atomics.waitAsync does not keep a thread alive: this does, until told to stop.
  const alive = setInterval(() => {}, 1 << 30)
  const reading = (): void => {
    const had = ring.pending()
    read()
    if (Atomics.load(control, Control.STOP) === 1) {
      clearInterval(timer)
      clearInterval(alive)
      flushAll()
      Atomics.store(control, Control.DONE, 1)
      Atomics.notify(control, Control.DONE)
      return
    }
    idle = had ? 0 : idle + 1
    if (idle >= IDLE_READINGS) sleep()
  }
  const wake = (): void => {
    idle = 0
    timer = setInterval(reading, data.flushMs)
    reading()
  }
  const sleep = (): void => {
    clearInterval(timer)
    Atomics.store(control, Control.SLEEPING, 1)
    // A record put (or a stop asked) before the writer could see SLEEPING: no one would wake us.
    if (ring.pending() || Atomics.load(control, Control.STOP) === 1) {
      Atomics.store(control, Control.SLEEPING, 0)
      wake()
      return
    }
    const waited = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync(
      control,
      Control.SLEEPING,
      1,
    )
    if (waited.async) void (waited.value as Promise<string>).then(wake)
    else wake()
  }
  wake()
}
