/**
 * @module The request log of `entistore serve` on its own thread: the serving thread puts each
 * request's entry in a shared ring (entry-ring.ts, a copy of its URL and a few numbers) and goes
 * on; a logging thread (log-thread.ts) makes the lines and writes them. Made on the serving
 * thread, a line and its write cost a GET about 7 % of its time, however it was built or batched;
 * handed over this way, about 5 % (issue 66; docs/benchmarks.md, "The request log").
 *
 * The other lines of stdout (`line`) go through the same ring, so that they keep their place
 * among the log's. When the ring is full (the output is slower than the requests), entries are
 * dropped and counted, and a line says how many where they are missing: memory stays bounded.
 * Nothing is lost when the process ends: at its exit the serving thread asks the logging thread
 * to write everything and waits for it (a few milliseconds; `exitWaitMs` at most, for an output
 * that takes nothing). If the thread cannot run (it failed to start, or its built script is
 * missing when run from the sources), the serving thread makes and writes the lines itself, as
 * line-batch.ts does, and says so once on stderr.
 */
import { writeSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import { threadEntry, workerExecArgv } from '../parallel/worker-entry.js'
import {
  requestLogLine,
  type RequestLogEntry,
  type RequestLogFormat,
} from '../serve/request-log.js'
import { Control, EntryRing } from './entry-ring.js'
import { batchedLines, fdSink, type LineWriter } from './line-batch.js'
import type { LogThreadData } from './log-thread.js'

export interface ThreadedLogOptions {
  /** The file descriptor the lines go to. @default 1 (stdout) */
  readonly fd?: number
  readonly format: RequestLogFormat
  /** The cluster worker's number under `--workers` (its lines say it). */
  readonly worker?: number
  /** The most bytes of one write (line-batch.ts's MAX_WRITE, or MAX_WRITE_ALONE). */
  readonly maxWrite: number
  /**
   * How often the thread reads the ring, in milliseconds: the longest a request's line waits
   * (a line said on stdout goes at once). @default 200: each reading finds the thread's code and
   * data cold; the log cost a GET about 2 µs of CPU read every 50 ms, 1.5 every 200 ms
   * (docs/benchmarks.md)
   */
  readonly flushMs?: number
  /**
   * The ring's size in UTF-16 units (2 bytes each). @default 2 Mi units (4 MiB): a second of GETs
   * by key at 50,000 a second, five readings
   */
  readonly ringUnits?: number
  /** The longest the exit waits for the thread to write what is left. @default 2000 */
  readonly exitWaitMs?: number
  /** Told when the thread failed and the serving thread writes the lines itself. @default stderr */
  readonly onFallback?: (reason: string) => void
  /** @internal The thread's script (tests give a missing one). @default the built logging-thread.js */
  readonly entry?: URL
}

export interface ThreadedLog {
  /** Logs one request. */
  readonly entry: (entry: RequestLogEntry) => void
  /** Writes a line of stdout in its place among the log's; never dropped. */
  readonly line: (text: string) => void
  /**
   * Has everything put so far written, then the thread stop; synchronous (called at the
   * process's exit). False when the thread did not say it was done within `exitWaitMs`.
   */
  readonly close: () => boolean
}

// Slept on between tries when the ring has no room for a line that must not be dropped.
const PAUSE = new Int32Array(new SharedArrayBuffer(4))
const ROOM_TRIES = 1000

/** Starts the logging thread; the process's exit runs `close`. */
export function threadedLog(options: ThreadedLogOptions): ThreadedLog {
  const fd = options.fd ?? 1
  const flushMs = options.flushMs ?? 200
  const ring = EntryRing.create(options.ringUnits ?? 1 << 21)
  const control = ring.control
  const data: LogThreadData = {
    ring: ring.buffers,
    fd,
    format: options.format,
    worker: options.worker,
    maxWrite: options.maxWrite,
    flushMs,
  }
  // Once the thread failed: the lines are made and written here.
  let here: LineWriter | undefined
  const fallBack = (reason: string): void => {
    if (here !== undefined) return
    here = batchedLines(fdSink(fd), { maxWrite: options.maxWrite, flushMs })
    ;(options.onFallback ?? ((r) => process.stderr.write(`${r}\n`)))(
      `entistore: the request log's thread stopped (${reason}); its lines are written by the ` +
        'serving thread from now on',
    )
    // What it had not read yet, in order: nobody else reads the ring now.
    ring.drain((record) =>
      typeof record === 'string' ? here!(record, true) : here!(lineOf(record)),
    )
  }
  const lineOf = (e: RequestLogEntry): string => requestLogLine(e, options.format, options.worker)

  let thread: Worker | undefined
  try {
    thread = new Worker(options.entry ?? threadEntry('log-output/logging-thread.js'), {
      workerData: data,
      execArgv: workerExecArgv(),
      stdout: false,
      stderr: false,
    })
    // The thread never keeps the process alive: the exit waits for its last lines (close).
    thread.unref()
    thread.on('error', (error: Error) => fallBack(error.message))
    thread.on('exit', (code) => {
      if (Atomics.load(control, Control.DONE) !== 1) fallBack(`it exited with code ${code}`)
    })
  } catch (error) {
    fallBack((error as Error).message)
  }

  const close = (): boolean => {
    if (here !== undefined) return true
    Atomics.store(control, Control.STOP, 1)
    Atomics.store(control, Control.SLEEPING, 0)
    Atomics.notify(control, Control.SLEEPING)
    Atomics.store(control, Control.URGENT, 1)
    Atomics.notify(control, Control.URGENT)
    return Atomics.wait(control, Control.DONE, 0, options.exitWaitMs ?? 2000) !== 'timed-out'
  }
  process.once('exit', close)

  return {
    entry: (e) => {
      if (here !== undefined) here(lineOf(e))
      else if (!ring.putEntry(e)) Atomics.add(control, Control.DROPPED, 1)
    },
    line: (text) => {
      if (here === undefined && text.length <= EntryRing.MAX_TEXT)
        for (let tries = 0; tries < ROOM_TRIES; tries++) {
          if (ring.putText(text)) {
            // Out at once, not at the next reading (the URL line tells a script it may begin).
            Atomics.store(control, Control.URGENT, 1)
            Atomics.notify(control, Control.URGENT)
            return
          }
          // The ring is full: its reader frees room as it writes.
          Atomics.wait(PAUSE, 0, 0, 1)
        }
      if (here !== undefined) return here(text, true)
      // A line longer than a record, or an output that took nothing for a second: written
      // now, maybe out of its place, never lost.
      try {
        writeSync(fd, `${text}\n`)
      } catch {
        // An output gone: the line has nowhere to go.
      }
    },
    close,
  }
}
