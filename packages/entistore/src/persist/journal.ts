/**
 * @module Journal segments: an append-only file of framed change-log records, each payload
 * `{"lsn": N, "record": {…}}` with N the record's number, one more than the last. A segment is
 * created with its magic in place (written and renamed, so that it never exists half-made), and
 * then only appended to. Each append is one write of one frame; `flush` makes the writes so far
 * durable (fdatasync). When to flush is the persistence's choice (persist.ts): after every
 * append, or once per batch window.
 */
import { closeSync, ftruncateSync, openSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { LogRecord } from '@entistore/core'
import { FileError } from '../file-error.js'
import { syncData, writeAll, writeFileDurably } from './durable-files.js'
import { encodeFrame, FrameDamage, scanFrames } from './frames.js'
import { JOURNAL_MAGIC, segmentName } from './persist-dir.js'

/** A record as a segment holds it. */
export interface JournalEntry {
  readonly lsn: number
  readonly record: LogRecord
}

/** One segment, open for appending. */
export class JournalSegment {
  readonly file: string
  /** The number of the first record it may hold. */
  readonly first: number
  #fd: number
  #bytes: number
  #dirty = false

  private constructor(file: string, first: number, fd: number, bytes: number) {
    this.file = file
    this.first = first
    this.#fd = fd
    this.#bytes = bytes
  }

  /** Creates the segment for records from `first` on, in `dir`, durably; opens it for appending. */
  static create(dir: string, first: number): JournalSegment {
    const file = join(dir, segmentName(first))
    writeFileDurably(file, [JOURNAL_MAGIC])
    return new JournalSegment(file, first, openSync(file, 'a'), JOURNAL_MAGIC.length)
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
    return new JournalSegment(file, first, fd, end)
  }

  /** Bytes in the file, magic included. */
  get bytes(): number {
    return this.#bytes
  }

  /** Appends record `lsn` in one write. Durable only once `flush` has run. */
  append(lsn: number, record: LogRecord): void {
    // The record's text is put inside the entry's as it is: no copy of the record object.
    const frame = encodeFrame(`{"lsn":${lsn},"record":${JSON.stringify(record)}}`)
    this.#dirty = true
    writeAll(this.#fd, frame)
    this.#bytes += frame.length
  }

  /** Makes every append so far durable; nothing to do when there was none since the last flush. */
  flush(): void {
    if (!this.#dirty) return
    syncData(this.#fd)
    this.#dirty = false
  }

  close(): void {
    if (this.#fd < 0) return
    try {
      this.flush()
    } finally {
      closeSync(this.#fd)
      this.#fd = -1
    }
  }
}

export interface ReadSegment {
  readonly entries: JournalEntry[]
  /** Where the good frames end, and the file's size: a torn tail lies between. */
  readonly end: number
  readonly size: number
}

/** Reads a segment's records; throws a FileError naming it for damage a crash cannot make. */
export function readSegment(file: string): ReadSegment {
  const bytes = readFileSync(file)
  if (!bytes.subarray(0, JOURNAL_MAGIC.length).equals(JOURNAL_MAGIC))
    throw new FileError(file, 'not an Entistore journal (its first bytes are not ENTJRN1)')
  let scanned
  try {
    scanned = scanFrames(bytes, JOURNAL_MAGIC.length)
  } catch (e) {
    if (!(e instanceof FrameDamage)) throw e
    throw new FileError(
      file,
      `the journal is ${e.message}: this is not a write cut short by a crash, so the records after it are not dropped silently; restore the folder from a backup, or cut the file at that byte to start without them`,
      { cause: e },
    )
  }
  const entries = scanned.payloads.map((payload, i) => {
    let entry: JournalEntry
    try {
      entry = JSON.parse(payload) as JournalEntry
    } catch {
      throw new FileError(file, `the journal's record ${i} is not JSON, yet its checksum matches`)
    }
    if (!Number.isSafeInteger(entry?.lsn) || typeof entry.record !== 'object')
      throw new FileError(file, `the journal's record ${i} has no number or no record`)
    return entry
  })
  return { entries, end: scanned.end, size: bytes.length }
}
