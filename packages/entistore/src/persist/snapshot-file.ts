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
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { LogRecord } from '@entistore/core'
import { FileError } from '../file-error.js'
import { writeFileDurably, writeFileDurablyAsync } from './durable-files.js'
import { encodeFrame, FrameDamage, scanFrames } from './frames.js'
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
  readonly records: LogRecord[]
}

/** Reads a snapshot file whole; throws a FileError naming it when it is not one, or not whole. */
export function readSnapshotFile(file: string): ReadSnapshot {
  const bytes = readFileSync(file)
  const version = frameVersionOf(bytes, SNAPSHOT_MAGIC)
  if (version === undefined)
    throw new FileError(
      file,
      'not an Entistore snapshot (its first bytes are not ENTSNP2 or ENTSNP1)',
    )
  let payloads
  let end: number
  try {
    ;({ payloads, end } = scanFrames(bytes, SNAPSHOT_MAGIC.length, version))
  } catch (e) {
    if (!(e instanceof FrameDamage)) throw e
    throw new FileError(file, `the snapshot is ${e.message}`, { cause: e })
  }
  const damaged = (why: string): never => {
    throw new FileError(
      file,
      `the snapshot is damaged (${why}); a snapshot is renamed into place whole, so this is not a crash: restore the folder from a backup`,
    )
  }
  if (end !== bytes.length) damaged(`it ends in a partial frame at byte ${end}`)
  const parsed = payloads.map(({ text, attachments }) => {
    let value: Record<string, unknown>
    try {
      value = JSON.parse(text) as Record<string, unknown>
    } catch {
      return damaged('a frame is not JSON')
    }
    return attachments.length === 0 ? value : { ...value, attachments }
  })
  const head = parsed[0]
  const tail = parsed.at(-1)
  if (parsed.length < 2 || !Number.isSafeInteger(head?.lsn)) damaged('no header frame')
  if (tail?.end !== true || tail.records !== parsed.length - 2) damaged('no end frame')
  return { lsn: head!.lsn as number, records: parsed.slice(1, -1) as unknown as LogRecord[] }
}
