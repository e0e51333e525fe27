/**
 * @module Journal segments: append-only files of framed change-log records, each frame's text
 * `{"lsn": N, "record": {…}}` with N the record's number, one more than the last, and its
 * attachments the record's pictures and BLOBs (frames.ts). A segment is created with its magic in
 * place (written and renamed, so that it never exists half-made), and then only appended to.
 *
 * The Journal writes them in order. A record is written inside its commit (and, with fsync
 * 'commit', flushed: fdatasync) when nothing is being written and its frame is small; a large
 * one (a picture: writing and flushing 16 MiB holds a thread for 60–80 ms) is written off the
 * event loop, by libuv's thread pool, and so is every record that comes while one is. Those are
 * *pending*: `whenSafe()` says when they are as safe as the fsync mode promises, and a REST reply
 * waits for it (durable-replies.ts). Pending records are written together: one write, one flush.
 */
import { closeSync, ftruncateSync, openSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { LogRecord, SnapshotRows } from '@entistore/core'
import { FileError } from '../files/file-error.js'
import {
  syncData,
  syncDataAsync,
  writeAll,
  writeAllAsync,
  writeFileDurably,
  writeFileDurablyAsync,
} from './durable-files.js'
import { encodeFrame, FrameDamage, scanFrames, type EncodedFrame } from './frames.js'
import { frameVersionOf, JOURNAL_MAGIC, segmentName } from './persist-dir.js'

/** A record as a segment holds it. */
export interface JournalEntry {
  readonly lsn: number
  readonly record: LogRecord
}

/**
 * `record`'s frame: its text (the journal's `{"lsn": N, "record": …}`, or the record alone in a
 * snapshot, `lsn` undefined) and its attachments.
 */
export function recordFrame(
  lsn: number | undefined,
  record: LogRecord | SnapshotRows,
): EncodedFrame {
  const { attachments = [], ...text } = record
  // The record's text is put inside the entry's as it is: no copy of the record object.
  const json = JSON.stringify(text)
  return encodeFrame(lsn === undefined ? json : `{"lsn":${lsn},"record":${json}}`, attachments)
}

/** One segment, open for appending (in version 2 framing). */
export class JournalSegment {
  readonly file: string
  /** The number of the first record it may hold. */
  readonly first: number
  #fd: number
  #dirty = false

  private constructor(file: string, first: number, fd: number) {
    this.file = file
    this.first = first
    this.#fd = fd
  }

  /** Creates the segment for records from `first` on, in `dir`, durably; opens it for appending. */
  static create(dir: string, first: number): JournalSegment {
    const file = join(dir, segmentName(first))
    writeFileDurably(file, [JOURNAL_MAGIC])
    return new JournalSegment(file, first, openSync(file, 'a'))
  }

  /** `create` off the event loop. */
  static async createAsync(dir: string, first: number): Promise<JournalSegment> {
    const file = join(dir, segmentName(first))
    await writeFileDurablyAsync(file, [JOURNAL_MAGIC])
    return new JournalSegment(file, first, openSync(file, 'a'))
  }

  /**
   * Opens an existing segment for appending after its first `end` bytes: what follows them (a torn
   * tail) is cut off first, durably, so that new records never follow a partial one.
   */
  static reopen(file: string, first: number, end: number, size: number): JournalSegment {
    const fd = openSync(file, 'a')
    if (end < size) {
      ftruncateSync(fd, end)
      syncData(fd)
    }
    return new JournalSegment(file, first, fd)
  }

  /** Appends `frames` in one write. Durable only once flushed. */
  writeSync(frames: readonly EncodedFrame[]): void {
    this.#dirty = true
    for (const frame of frames) for (const chunk of frame.chunks) writeAll(this.#fd, chunk)
  }

  /** `writeSync` off the event loop. */
  write(frames: readonly EncodedFrame[]): Promise<void> {
    this.#dirty = true
    return writeAllAsync(
      this.#fd,
      frames.flatMap((f) => f.chunks),
    )
  }

  /** Makes every write so far durable; nothing to do when there was none since the last flush. */
  flushSync(): void {
    if (!this.#dirty) return
    syncData(this.#fd)
    this.#dirty = false
  }

  /** `flushSync` off the event loop. */
  async flush(): Promise<void> {
    if (!this.#dirty) return
    this.#dirty = false
    try {
      await syncDataAsync(this.#fd)
    } catch (e) {
      this.#dirty = true
      throw e
    }
  }

  /** Flushes and closes the file. */
  close(): void {
    if (this.#fd < 0) return
    try {
      this.flushSync()
    } finally {
      closeSync(this.#fd)
      this.#fd = -1
    }
  }
}

export interface JournalOptions {
  /** `'commit'`: a record is safe once flushed; `'batch'`: once written (see PersistOptions). */
  readonly fsync: 'commit' | 'batch'
  /** Frames of this many bytes or more are written off the event loop (read at each append). */
  readonly backgroundBytes: () => number
  /**
   * Told of a write or a step that failed: the journal takes no more records, and what this
   * returns is what every pending record's waiter gets, and every later append throws.
   */
  readonly failed: (error: unknown) => Error
}

/** What the journal does in order: records to write, or a step of its own (a new segment). */
type Step =
  | { readonly lsn: number; readonly frame: EncodedFrame }
  | {
      readonly lsn: number
      readonly run: () => Promise<void>
      readonly done: { resolve(): void; reject(e: unknown): void }
    }

/** A caller of whenSafe: resolved once record `lsn` is safe. */
interface Waiter {
  readonly lsn: number
  resolve(): void
  reject(e: Error): void
}

/** The journal's segments, written in order: see the module note. */
export class Journal {
  readonly #options: JournalOptions
  #segment: JournalSegment
  /** Bytes of the segment records go to (the one a queued rotation makes, once asked for). */
  #bytes: number
  /** The first record of the segment records go to. */
  #first: number
  readonly #steps: Step[] = []
  #running = false
  /** The number of the last record handed in, and of the last one safe with all before it. */
  #appended: number
  #safe: number
  #waiters: Waiter[] = []
  #idle: (() => void)[] = []
  #failed: Error | undefined

  constructor(segment: JournalSegment, bytes: number, lsn: number, options: JournalOptions) {
    this.#segment = segment
    this.#bytes = bytes
    this.#first = segment.first
    this.#appended = this.#safe = lsn
    this.#options = options
  }

  /** The segment records are written to now. */
  get segment(): JournalSegment {
    return this.#segment
  }

  /** Bytes of the segment records go to, magic included, pending records counted. */
  get bytes(): number {
    return this.#bytes
  }

  /** The number of the first record the segment records go to may hold. */
  get first(): number {
    return this.#first
  }

  /** Nothing being written, nothing waiting to be. */
  get idle(): boolean {
    return !this.#running && this.#steps.length === 0
  }

  /** Whether some record handed in is not safe yet. */
  get pending(): boolean {
    return this.#safe < this.#appended
  }

  /**
   * Hands record `lsn` in: written (and with fsync 'commit' flushed) before this returns when
   * nothing is pending and its frame is small, else pending. Throws if it cannot be written now.
   */
  append(lsn: number, record: LogRecord): void {
    if (this.#failed) throw this.#failed
    const frame = recordFrame(lsn, record)
    this.#appended = lsn
    this.#bytes += frame.bytes
    if (!this.idle || frame.bytes >= this.#options.backgroundBytes()) {
      this.#steps.push({ lsn, frame })
      void this.#pump()
      return
    }
    try {
      this.#segment.writeSync([frame])
      if (this.#options.fsync === 'commit') this.#segment.flushSync()
    } catch (e) {
      this.#fail(e)
      throw this.#failed
    }
    this.#safe = lsn
  }

  /**
   * Runs `run` once everything handed in before is written; records up to `lsn` (a record with no
   * frame: a load, made durable by `run`'s snapshot) are safe once it resolves. A failure fails
   * the journal.
   */
  after(lsn: number, run: () => Promise<void>): Promise<void> {
    if (this.#failed) return Promise.reject(this.#failed)
    this.#appended = Math.max(this.#appended, lsn)
    return new Promise<void>((resolve, reject) => {
      this.#steps.push({ lsn, run, done: { resolve, reject } })
      void this.#pump()
    })
  }

  /**
   * Starts a new segment in `dir` from record `first` on, once every record before it is written
   * and flushed (so that a crash never keeps a later record and loses an earlier one).
   */
  rotate(dir: string, first: number): Promise<void> {
    this.#bytes = JOURNAL_MAGIC.length
    this.#first = first
    return this.after(this.#appended, async () => {
      const old = this.#segment
      await old.flush()
      this.#segment = await JournalSegment.createAsync(dir, first)
      old.close()
    })
  }

  /** `rotate` at once; only when idle (start-up, a load written as a snapshot at once). */
  rotateSync(dir: string, first: number): void {
    const old = this.#segment
    old.flushSync()
    this.#segment = JournalSegment.create(dir, first)
    this.#bytes = JOURNAL_MAGIC.length
    this.#first = first
    old.close()
  }

  /** Flushes what is written (a batch window's end): now, or after what is being written. */
  flush(): void {
    if (this.#failed) throw this.#failed
    if (this.idle) this.#segment.flushSync()
    else void this.after(this.#appended, () => this.#segment.flush()).catch(() => undefined)
  }

  /**
   * Undefined when every record handed in is safe; else a Promise that resolves once those handed
   * in so far are, and rejects with the journal's failure.
   */
  whenSafe(): Promise<void> | undefined {
    if (this.#failed) return Promise.reject(this.#failed)
    if (!this.pending) return undefined
    const lsn = this.#appended
    return new Promise((resolve, reject) => this.#waiters.push({ lsn, resolve, reject }))
  }

  /** Resolves once nothing is being written (at once when idle). */
  drained(): Promise<void> {
    if (this.idle) return Promise.resolve()
    return new Promise((resolve) => this.#idle.push(resolve))
  }

  /** Flushes and closes the current segment; only when idle. */
  close(): void {
    this.#segment.close()
  }

  async #pump(): Promise<void> {
    if (this.#running) return
    this.#running = true
    try {
      while (this.#steps.length > 0) {
        const step = this.#steps[0]!
        if ('run' in step) {
          this.#steps.shift()
          try {
            await step.run()
          } catch (e) {
            step.done.reject(e)
            throw e
          }
          step.done.resolve()
          this.#settle(step.lsn)
          continue
        }
        // Every record waiting, in one write and one flush.
        let n = 0
        while (n < this.#steps.length && 'frame' in this.#steps[n]!) n++
        const batch = this.#steps.splice(0, n) as { lsn: number; frame: EncodedFrame }[]
        await this.#segment.write(batch.map((s) => s.frame))
        if (this.#options.fsync === 'commit') await this.#segment.flush()
        this.#settle(batch.at(-1)!.lsn)
      }
    } catch (e) {
      this.#fail(e)
    } finally {
      this.#running = false
      for (const resolve of this.#idle.splice(0)) resolve()
    }
  }

  #settle(lsn: number): void {
    if (lsn > this.#safe) this.#safe = lsn
    if (this.#waiters.length === 0) return
    const waiting: Waiter[] = []
    for (const w of this.#waiters)
      if (w.lsn <= this.#safe) w.resolve()
      else waiting.push(w)
    this.#waiters = waiting
  }

  #fail(e: unknown): void {
    const failed = (this.#failed ??= this.#options.failed(e))
    for (const step of this.#steps.splice(0)) if ('run' in step) step.done.reject(failed)
    for (const w of this.#waiters.splice(0)) w.reject(failed)
  }
}

export interface ReadSegment {
  readonly entries: JournalEntry[]
  /** Where the good frames end, and the file's size: a torn tail lies between. */
  readonly end: number
  readonly size: number
  /** Its framing: a version 1 segment is read, never appended to. */
  readonly version: 1 | 2
}

/** Reads a segment's records; throws a FileError naming it for damage a crash cannot make. */
export function readSegment(file: string): ReadSegment {
  const bytes = readFileSync(file)
  const version = frameVersionOf(bytes, JOURNAL_MAGIC)
  if (version === undefined)
    throw new FileError(
      file,
      'not an Entistore journal (its first bytes are not ENTJRN2 or ENTJRN1)',
    )
  let scanned
  try {
    scanned = scanFrames(bytes, JOURNAL_MAGIC.length, version)
  } catch (e) {
    if (!(e instanceof FrameDamage)) throw e
    throw new FileError(
      file,
      `the journal is ${e.message}: this is not a write cut short by a crash, so the records after it are not dropped silently; restore the folder from a backup, or cut the file at that byte to start without them`,
      { cause: e },
    )
  }
  const entries = scanned.payloads.map(({ text, attachments }, i) => {
    let entry: JournalEntry
    try {
      entry = JSON.parse(text) as JournalEntry
    } catch {
      throw new FileError(file, `the journal's record ${i} is not JSON, yet its checksum matches`)
    }
    if (!Number.isSafeInteger(entry?.lsn) || typeof entry.record !== 'object')
      throw new FileError(file, `the journal's record ${i} has no number or no record`)
    return attachments.length === 0
      ? entry
      : { lsn: entry.lsn, record: { ...entry.record, attachments } }
  })
  return { entries, end: scanned.end, size: bytes.length, version }
}
