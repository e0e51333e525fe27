/**
 * @module Snapshot files: the whole store as change-log records of kind `snapshot` (the core's
 * `snapshotRecords`, pictures and BLOBs as attachments), framed like the journal. The first frame
 * says which journal record the snapshot ends at, `{"lsn": N}`; the last one,
 * `{"end": true, "records": K}`, that it is whole.
 *
 * A snapshot is written to a temporary file and renamed into place (durable-files.ts), so a crash
 * never leaves one half-written under its name: a snapshot that fails its checks is damage, and
 * start-up refuses it rather than start from an older state.
 *
 * Its frames are made at once, from the store as it is (`snapshotFrames`: the text of the rows,
 * and the bytes of the pictures as the store holds them, not copied), and written either at once
 * (`writeSnapshotFile`) or off the event loop (`writeSnapshotFileAsync`) while the store goes on
 * changing.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { join } from 'node:path'
import type { LogRecord } from '@entistore/core'
import { FileError } from '../file-error.js'
import { writeFileDurably, writeFileDurablyAsync } from './durable-files.js'
import {
  encodeFrame,
  FrameDamage,
  scanFrames,
  type FramePayload,
  type FrameVersion,
} from './frames.js'
import { recordFrame } from './journal.js'
import { frameVersionOf, SNAPSHOT_MAGIC, snapshotName } from './persist-dir.js'

export interface WrittenSnapshot {
  readonly file: string
  readonly bytes: number
  readonly records: number
}

/** A snapshot's bytes, made from the store as it was: the magic and every frame, in order. */
export interface SnapshotFrames {
  readonly lsn: number
  readonly chunks: readonly Uint8Array[]
  readonly records: number
}

/** The bytes of the snapshot after record `lsn`, frame by frame; `count.records` counts them. */
function* snapshotChunks(
  lsn: number,
  records: Iterable<LogRecord>,
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

/** `records` as the frames of the snapshot after record `lsn`, made now, to write later. */
export function snapshotFrames(lsn: number, records: Iterable<LogRecord>): SnapshotFrames {
  const count = { records: 0 }
  const chunks = [...snapshotChunks(lsn, records, count)]
  return { lsn, chunks, records: count.records }
}

/** Writes `records` as the snapshot after record `lsn` in `dir`, durably, at once. */
export function writeSnapshotFile(
  dir: string,
  lsn: number,
  records: Iterable<LogRecord>,
): WrittenSnapshot {
  const file = join(dir, snapshotName(lsn))
  const count = { records: 0 }
  // Frame by frame, as they are made: the whole text is never held at once.
  const bytes = writeFileDurably(file, snapshotChunks(lsn, records, count))
  return { file, bytes, records: count.records }
}

/** Writes `frames` in `dir`, durably, off the event loop. */
export async function writeSnapshotFileAsync(
  dir: string,
  frames: SnapshotFrames,
): Promise<WrittenSnapshot> {
  const file = join(dir, snapshotName(frames.lsn))
  const bytes = await writeFileDurablyAsync(file, frames.chunks)
  return { file, bytes, records: frames.records }
}

export interface ReadSnapshot {
  readonly lsn: number
  /**
   * The records, read from the file frame by frame as they are iterated (once): the file is
   * never held whole, nor its records all parsed at once. Iterating throws a FileError for a
   * damaged file (no end frame, a partial frame, a frame that is not JSON) when it gets there:
   * a replay that consumes them before its commit then applies nothing.
   */
  readonly records: Iterable<LogRecord>
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
    function* records(): Generator<LogRecord> {
      try {
        let count = 0
        // Each frame is parsed when the one before it was handed on: the last one read is the
        // end frame, which is not a record.
        let previous: Record<string, unknown> | undefined
        for (const payload of frames) {
          if (previous !== undefined) {
            count++
            entities += (previous as unknown as LogRecord).changes?.length ?? 0
            yield previous as unknown as LogRecord
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
