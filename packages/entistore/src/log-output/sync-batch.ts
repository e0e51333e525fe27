/**
 * @module The logging thread's writer (log-thread.ts): its lines gathered as bytes in one batch of
 * whole lines and written with synchronous writes, which block that thread only, never the
 * serving thread. A batch goes out when the next line might not fit (at most `maxWrite` bytes a
 * write: under `--workers`, what one write into a pipe delivers whole, so that the workers
 * sharing stdout never mix their lines; line-batch.ts) and at the end of each reading of the ring.
 * A line is written into the batch where it is made: a plain line straight from the ring
 * (plain-line.ts), any other encoded there; no buffer a line.
 *
 * An output that says "not now" (EAGAIN: a full non-blocking pipe) is tried again a millisecond
 * later, for as long as it takes: meanwhile the ring fills and the serving thread drops entries
 * and counts them, so memory stays bounded. An output gone (a closed pipe, EPIPE) takes nothing
 * more: the lines are discarded from then on.
 */

/** Writes what it can of `data` now, answering the bytes written; throws as `fs.writeSync`. */
export type WriteSync = (data: Uint8Array) => number

const PAUSE = new Int32Array(new SharedArrayBuffer(4))
const NEWLINE = 0x0a

export class SyncBatch {
  /** The batch's bytes: a line made in place goes at `length`, after `room`. */
  readonly buffer: Buffer
  length = 0
  #closed = false

  constructor(
    readonly write: WriteSync,
    maxWrite: number,
  ) {
    this.buffer = Buffer.allocUnsafeSlow(maxWrite)
  }

  /** Room for `most` bytes (at most the batch's size) at `length`: the batch written if need be. */
  room(most: number): void {
    if (this.length + most > this.buffer.length) this.flush()
  }

  /** Adds `text` and a newline. A line longer than a batch is written alone, after the batch. */
  line(text: string): void {
    // The most bytes it can take, 3 a UTF-16 unit: measuring its UTF-8 length first is a pass more.
    const most = text.length * 3 + 1
    if (most > this.buffer.length) {
      this.flush()
      this.#writeAll(Buffer.from(`${text}\n`))
      return
    }
    this.room(most)
    this.length += this.buffer.write(text, this.length)
    this.buffer[this.length++] = NEWLINE
  }

  /** Writes the batch gathered so far. */
  flush(): void {
    if (this.length === 0) return
    this.#writeAll(this.buffer.subarray(0, this.length))
    this.length = 0
  }

  #writeAll(data: Uint8Array): void {
    for (let at = 0; at < data.length && !this.#closed;) {
      try {
        at += this.write(data.subarray(at))
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') Atomics.wait(PAUSE, 0, 0, 1)
        else this.#closed = true
      }
    }
  }
}
