/**
 * @module The request log's writer on the serving thread, when the logging thread cannot run
 * (threaded-log.ts falls back to it): its lines gathered and written in batches, asynchronously,
 * off the request path, the way pino's sonic-boom writes. Node writes `process.stdout` synchronously
 * when it is a pipe or a file: a write a turn still cost a system call on the serving thread and
 * woke the reader as often (a fifth of the writes/s at 16 clients, issue 66). Here a request only
 * appends its line to a string; the lines go out in one write a few milliseconds later (`flushMs`),
 * or as soon as a write's worth has gathered, through `fs.write` on libuv's thread pool, one write
 * at a time, so their order is kept.
 *
 * - A write holds whole lines, at most 4096 bytes of them in a worker of `--workers N` (PIPE_BUF,
 *   what one write into a pipe delivers whole), so that the workers, writing into the stdout they
 *   share, never split or mix each other's lines; 64 KiB in a process alone.
 * - Memory is bounded when the output is slower than the requests (a terminal scrolling, a pipe
 *   nobody reads): past `maxBuffered` bytes waiting, lines are dropped and counted, and one line
 *   says how many where they are missing, once the output takes lines again.
 * - Nothing is lost at exit: a pending timer or write keeps the process alive until its lines are
 *   out (a normal exit, and SIGTERM or SIGINT, which stop `serve` gracefully); what is still
 *   waiting when the process is ended at once (`process.exit`) is written synchronously then, a
 *   write not yet handed to the thread pool first (fdSink).
 */
import { write as fsWrite, writeSync } from 'node:fs'

/** The most bytes written at once: a pipe delivers a write of this many or fewer whole. */
export const MAX_WRITE = 4096
/** The most bytes a process alone on its output writes at once: fewer writes, each more lines. */
export const MAX_WRITE_ALONE = 65536

/** Where the lines go: a file descriptor's asynchronous and synchronous writes. */
export interface LineSink {
  /** Writes `data`, then calls `done` with the bytes written (maybe fewer than given) or an error. */
  write(data: Buffer, done: (error: NodeJS.ErrnoException | null, written: number) => void): void
  /** Writes `data` now, returning the bytes written (the exit's last lines). */
  writeSync(data: Buffer): number
  /**
   * Takes back the write under way if it has not started yet: true then, and its data is the
   * caller's to write (at exit, in order, before the lines after it). @default none: never
   */
  abort?(): boolean
}

export interface LineBatchOptions {
  /**
   * The most bytes of one write (lines longer than that go alone). @default MAX_WRITE, what a
   * pipe several processes share delivers whole; a process alone on its output writes more at once
   */
  readonly maxWrite?: number
  /** Milliseconds a line may wait for others before it is written. @default 10 */
  readonly flushMs?: number
  /** Bytes of lines that may wait to be written; the lines beyond are dropped. @default 1 MiB */
  readonly maxBuffered?: number
  /** Runs `flush` in `ms` milliseconds (tests run it themselves). @default setTimeout */
  readonly schedule?: (flush: () => void, ms: number) => void
  /** Runs `flush` when the process exits (tests call it themselves). @default process 'exit' */
  readonly onExit?: (flush: () => void) => void
}

/** A writer of lines: `line` appends one; `always` lines (not the log's) are never dropped. */
export type LineWriter = (line: string, always?: boolean) => void

/** The sink of file descriptor `fd` (1: stdout). */
export function fdSink(fd: number): LineSink {
  // A write goes to the thread pool at the end of the turn that asked for it, not at once: a
  // process that ends in that turn (`process.exit` right after its lines) takes it back and
  // writes it first, in order. One handed to the thread pool cannot be taken back: when the
  // process ended before the pool ran it, its lines were lost, or came after those the exit
  // wrote (it happened on a busy machine).
  let queued: NodeJS.Immediate | undefined
  return {
    write: (data, done) => {
      queued = setImmediate(() => {
        queued = undefined
        fsWrite(fd, data, 0, data.length, null, done)
      })
    },
    writeSync: (data) => writeSync(fd, data),
    abort: () => {
      if (queued === undefined) return false
      clearImmediate(queued)
      queued = undefined
      return true
    },
  }
}

/** What the log says in place of the lines it dropped. */
export const droppedLine = (n: number): string =>
  `entistore: ${n} line${n === 1 ? '' : 's'} of the request log dropped here: the output took ` +
  'them slower than they came'

/** How long to wait before writing again when the output said "not now" (EAGAIN). */
const RETRY_MS = 10

const PAUSE = new Int32Array(new SharedArrayBuffer(4))

/** A writer of lines to `sink`, in batches of whole lines (see the module note). */
export function batchedLines(sink: LineSink, options: LineBatchOptions = {}): LineWriter {
  const flushMs = options.flushMs ?? 10
  const maxWrite = options.maxWrite ?? MAX_WRITE
  const maxBuffered = options.maxBuffered ?? 1 << 20
  const schedule = options.schedule ?? ((flush, ms) => void setTimeout(flush, ms))
  // Batches ready to be written (each at most maxWrite bytes unless one line is longer), the one
  // being written (its unwritten part), and the one still gathering lines.
  const ready: Buffer[] = []
  let writing: Buffer | undefined
  // The batch gathering lines: bytes, not a string. A line is encoded into it as it comes and is
  // garbage at once; strings kept for the few milliseconds until a write outlived the young
  // generation's collections, and the old generation's collector then cost a request more than
  // its line did.
  let batch: Buffer | undefined
  let batchBytes = 0
  let waiting = 0 // bytes of all three
  let dropped = 0
  let scheduled = false
  let closed = false
  // Whether the sink holds `writing` (from its write to its callback); not while a remainder
  // waits for the output to take more (EAGAIN).
  let inFlight = false

  const seal = (): void => {
    if (batch === undefined || batchBytes === 0) return
    ready.push(batch.subarray(0, batchBytes))
    batch = undefined
    batchBytes = 0
  }
  // Writes the oldest full batch, or with `gathered` (the timer's turn) the lines gathered so far,
  // unless a write is under way: its end comes back here for full batches only, so that the lines
  // of a busy server still go out a timer's worth at a time, not a write for every line or two.
  const next = (gathered: boolean): void => {
    if (writing !== undefined || closed) return
    if (ready.length === 0 && gathered) seal()
    const data = ready.shift()
    if (data === undefined) return
    writing = data
    inFlight = true
    sink.write(data, written)
  }
  const written = (error: NodeJS.ErrnoException | null, bytes: number): void => {
    inFlight = false
    const data = writing!
    if (error !== null && error.code !== 'EAGAIN') {
      // The output is gone (a closed pipe): nothing more can be said there.
      closed = true
      return
    }
    const done = error === null ? bytes : 0
    waiting -= done
    if (done < data.length) {
      writing = data.subarray(done)
      const resume = (): void => {
        inFlight = true
        sink.write(writing!, written)
      }
      if (error === null) resume()
      else schedule(resume, RETRY_MS)
      return
    }
    writing = undefined
    next(false)
    // The timer came while the write was under way: the lines it found wait for another.
    if (writing === undefined && batchBytes > 0) later()
  }
  const flush = (): void => {
    scheduled = false
    next(true)
  }
  const later = (): void => {
    if (scheduled) return
    scheduled = true
    schedule(flush, flushMs)
  }
  // Adds `line` and its newline.
  const add = (line: string): void => {
    // The most bytes the line can take, 3 a UTF-16 unit, and its newline: measuring its UTF-8
    // length first was a second pass over every line. A batch may be sealed a little short.
    const most = line.length * 3 + 1
    if (batchBytes > 0 && batchBytes + most > maxWrite) {
      seal()
      next(false)
    }
    // A line longer than a write goes alone, in a batch of its size.
    if (batch !== undefined && most > batch.length) batch = undefined
    batch ??= Buffer.allocUnsafeSlow(Math.max(maxWrite, most))
    const bytes = batch.write(line, batchBytes) + 1
    batchBytes += bytes
    batch[batchBytes - 1] = 0x0a
    waiting += bytes
    later()
  }
  // At exit, whatever no write has taken yet goes out at once: first the write under way if the
  // sink has not started it (or its remainder, waiting for the output), then the rest.
  const flushSync = (): void => {
    if (closed) return
    if (dropped > 0) add(droppedLine(dropped))
    dropped = 0
    seal()
    if (writing !== undefined && (!inFlight || sink.abort?.() === true)) ready.unshift(writing)
    writing = undefined
    let tries = 0
    for (let data = ready.shift(); data !== undefined; data = ready.shift()) {
      for (let at = 0; at < data.length;) {
        try {
          at += sink.writeSync(data.subarray(at))
        } catch (e) {
          // A non-blocking output that is full: wait a millisecond for its reader, a second at most.
          if ((e as NodeJS.ErrnoException).code !== 'EAGAIN' || ++tries > 1000) return
          Atomics.wait(PAUSE, 0, 0, 1)
        }
      }
    }
  }
  ;(options.onExit ?? ((f) => process.once('exit', f)))(flushSync)

  return (line, always = false) => {
    if (closed) return
    if (!always && waiting + line.length + 1 > maxBuffered) {
      dropped++
      return
    }
    if (dropped > 0) {
      add(droppedLine(dropped))
      dropped = 0
    }
    add(line)
  }
}
