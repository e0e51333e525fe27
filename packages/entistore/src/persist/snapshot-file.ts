/**
 * @module Snapshot files: the whole store as the core's `snapshotRows` (each dataclass's rows in
 * columns, then a change-log record of kind `snapshot` with the global stamp and sequences;
 * pictures and BLOBs as attachments), framed like the journal. A file written before holds
 * `snapshotRecords` (a change object a row), and is read the same way. The first frame says
 * which journal record the snapshot ends at, `{"lsn": N}`; the last one,
 * `{"end": true, "records": K}`, that it is whole.
 *
 * A snapshot is written to a temporary file and renamed into place (durable-files.ts), so a crash
 * never leaves one half-written under its name: a snapshot that fails its checks is damage, and
 * start-up refuses it rather than start from an older state.
 *
 * Its frames are made as they are written, never the whole file at once: either at once
 * (`writeSnapshotFile`, at start-up), or a slice of a few milliseconds at a time, written off the
 * event loop between two (`writeSnapshotFileAsync`), from records read from a view of the store
 * (the core's store-view.ts) while the store goes on changing. The bytes of pictures are the
 * store's own, not copied.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { isSnapshotRows, type LogRecord, type SnapshotRows } from '@entistore/core'
import { FileError } from '../files/file-error.js'
import { writeFileDurably, writeFileDurablyAsync } from './durable-files.js'
import {
  encodeFrame,
  FrameDamage,
  scanFrames,
  type FramePayload,
  type FrameVersion,
} from './frames.js'
import { recordFrame } from './journal.js'
import type { SliceTurns } from './take-slice.js'
import { frameVersionOf, SNAPSHOT_MAGIC, snapshotName } from './persist-dir.js'

export interface WrittenSnapshot {
  readonly file: string
  readonly bytes: number
  readonly records: number
}

/** The bytes of the snapshot after record `lsn`, frame by frame; `count.records` counts them. */
function* snapshotChunks(
  lsn: number,
  records: Iterable<LogRecord | SnapshotRows>,
  count: { records: number },
): Generator<Uint8Array> {
  yield SNAPSHOT_MAGIC
  yield* encodeFrame(JSON.stringify({ lsn })).chunks
  for (const record of records) {
    count.records++
    yield* recordFrame(undefined, record).chunks
  }
  yield* encodeFrame(JSON.stringify({ end: true, records: count.records })).chunks
}

/** Writes `records` as the snapshot after record `lsn` in `dir`, durably, at once. */
export function writeSnapshotFile(
  dir: string,
  lsn: number,
  records: Iterable<LogRecord | SnapshotRows>,
): WrittenSnapshot {
  const file = join(dir, snapshotName(lsn))
  const count = { records: 0 }
  // Frame by frame, as they are made: the whole text is never held at once.
  const bytes = writeFileDurably(file, snapshotChunks(lsn, records, count))
  return { file, bytes, records: count.records }
}

/**
 * Writes `records` (read lazily, from a view: see snapshotRecords) as the snapshot after record
 * `lsn` in `dir`, durably, a slice at a time: the event loop is held a few milliseconds at most
 * (SLICE_MS, on `turns`' clock) while the frames of a slice are made, and free while they are
 * written.
 */
export async function writeSnapshotFileAsync(
  dir: string,
  lsn: number,
  records: Iterable<LogRecord | SnapshotRows>,
  sliceMs?: number,
  turns?: SliceTurns,
): Promise<WrittenSnapshot> {
  const file = join(dir, snapshotName(lsn))
  const count = { records: 0 }
  const bytes = await writeFileDurablyAsync(
    file,
    snapshotChunks(lsn, records, count),
    sliceMs,
    turns,
  )
  return { file, bytes, records: count.records }
}

export interface ReadSnapshot {
  readonly lsn: number
  /**
   * The records, read from the file frame by frame as they are iterated (once): the file is
   * never held whole, nor its records all parsed at once. Iterating throws a FileError for a
   * damaged file (no end frame, a partial frame, a frame that is not JSON) when it gets there:
   * a replay that consumes them before its commit then applies nothing.
   */
  readonly records: Iterable<LogRecord | SnapshotRows>
  /** The entities of the records iterated so far (all of them once iterated). */
  readonly entities: () => number
}

// Bytes read at a time; a frame larger than this grows the buffer.
const READ_BYTES = 4 * 1024 * 1024

/**
 * Opens a snapshot file: its header is read now, its records as they are iterated. Throws a
 * FileError naming it when it is not a snapshot or has no header.
 */
export function readSnapshotFile(
  file: string,
  /** Bytes read at a time (a test reads a few at a time). @default 4 MiB */
  readBytes = READ_BYTES,
): ReadSnapshot {
  const fd = openSync(file, 'r')
  let closed = false
  const close = (): void => {
    if (!closed) closeSync(fd)
    closed = true
  }
  try {
    const size = fstatSync(fd).size
    const magic = Buffer.alloc(SNAPSHOT_MAGIC.length)
    readSync(fd, magic, 0, magic.length, 0)
    const version = frameVersionOf(magic, SNAPSHOT_MAGIC)
    if (version === undefined)
      throw new FileError(
        file,
        'not an Entistore snapshot (its first bytes are not ENTSNP2 or ENTSNP1)',
      )
    const damaged = (why: string): never => {
      throw new FileError(
        file,
        `the snapshot is damaged (${why}); a snapshot is renamed into place whole, so this is not a crash: restore the folder from a backup`,
      )
    }
    const frames = readFrames(file, fd, size, version, damaged, readBytes)
    const parse = (payload: FramePayload): Record<string, unknown> => {
      let value: Record<string, unknown>
      try {
        value = JSON.parse(payload.text) as Record<string, unknown>
      } catch {
        return damaged('a frame is not JSON')
      }
      return payload.attachments.length === 0
        ? value
        : { ...value, attachments: payload.attachments }
    }
    const first = frames.next()
    const head = first.done ? undefined : parse(first.value)
    if (!Number.isSafeInteger(head?.lsn)) damaged('no header frame')
    let entities = 0
    function* records(): Generator<LogRecord | SnapshotRows> {
      try {
        let count = 0
        // Each frame is parsed when the one before it was handed on: the last one read is the
        // end frame, which is not a record.
        let previous: Record<string, unknown> | undefined
        for (const payload of frames) {
          if (previous !== undefined) {
            count++
            const record = previous as unknown as LogRecord | SnapshotRows
            entities += (isSnapshotRows(record) ? record.count : record.changes?.length) ?? 0
            yield record
          }
          previous = parse(payload)
        }
        if (previous?.end !== true || previous.records !== count) damaged('no end frame')
      } finally {
        close()
      }
    }
    return { lsn: head!.lsn as number, records: records(), entities: () => entities }
  } catch (e) {
    close()
    throw e
  }
}

/** The frames of an open snapshot file after its magic, read a chunk at a time. */
function* readFrames(
  file: string,
  fd: number,
  size: number,
  version: FrameVersion,
  damaged: (why: string) => never,
  readBytes: number,
): Generator<FramePayload> {
  let buf = Buffer.allocUnsafe(Math.min(readBytes, Math.max(size, 1)))
  let filled = 0
  let position = SNAPSHOT_MAGIC.length
  // The file offset of buf[0].
  let at = position
  for (;;) {
    if (filled === buf.length) {
      const larger = Buffer.allocUnsafe(buf.length * 2)
      buf.copy(larger, 0, 0, filled)
      buf = larger
    }
    const n = readSync(fd, buf, filled, buf.length - filled, position)
    position += n
    filled += n
    let scanned
    try {
      scanned = scanFrames(buf.subarray(0, filled), 0, version)
    } catch (e) {
      if (!(e instanceof FrameDamage)) throw e
      throw new FileError(file, `the snapshot is ${e.message}`, { cause: e })
    }
    yield* scanned.payloads
    if (n === 0) {
      if (at + scanned.end !== size)
        damaged(`it ends in a partial frame at byte ${at + scanned.end}`)
      return
    }
    // A frame cut by the chunk's end moves to the front.
    buf.copyWithin(0, scanned.end, filled)
    filled -= scanned.end
    at += scanned.end
  }
}
