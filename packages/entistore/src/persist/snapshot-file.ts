/**
 * @module Snapshot files: the whole store as change-log records of kind `snapshot` (the core's
 * `snapshotRecords`), framed like the journal. The first frame says which journal record the
 * snapshot ends at, `{"lsn": N}`; the last one, `{"end": true, "records": K}`, that it is whole.
 *
 * A snapshot is written to a temporary file and renamed into place (durable-files.ts), so a crash
 * never leaves one half-written under its name: a snapshot that fails its checks is damage, and
 * start-up refuses it rather than start from an older state.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { LogRecord } from '@entistore/core'
import { FileError } from '../file-error.js'
import { writeFileDurably } from './durable-files.js'
import { encodeFrame, FrameDamage, scanFrames } from './frames.js'
import { SNAPSHOT_MAGIC, snapshotName } from './persist-dir.js'

export interface WrittenSnapshot {
  readonly file: string
  readonly bytes: number
  readonly records: number
}

/** Writes `records` as the snapshot after record `lsn` in `dir`, durably. */
export function writeSnapshotFile(
  dir: string,
  lsn: number,
  records: Iterable<LogRecord>,
): WrittenSnapshot {
  const file = join(dir, snapshotName(lsn))
  let count = 0
  function* chunks(): Generator<Uint8Array> {
    yield SNAPSHOT_MAGIC
    yield encodeFrame(JSON.stringify({ lsn }))
    for (const record of records) {
      count++
      yield encodeFrame(JSON.stringify(record))
    }
    yield encodeFrame(JSON.stringify({ end: true, records: count }))
  }
  const bytes = writeFileDurably(file, chunks())
  return { file, bytes, records: count }
}

export interface ReadSnapshot {
  readonly lsn: number
  readonly records: LogRecord[]
}

/** Reads a snapshot file whole; throws a FileError naming it when it is not one, or not whole. */
export function readSnapshotFile(file: string): ReadSnapshot {
  const bytes = readFileSync(file)
  if (!bytes.subarray(0, SNAPSHOT_MAGIC.length).equals(SNAPSHOT_MAGIC))
    throw new FileError(file, 'not an Entistore snapshot (its first bytes are not ENTSNP1)')
  let payloads: string[]
  let end: number
  try {
    ;({ payloads, end } = scanFrames(bytes, SNAPSHOT_MAGIC.length))
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
  const parsed = payloads.map((p) => {
    try {
      return JSON.parse(p) as Record<string, unknown>
    } catch {
      return damaged('a frame is not JSON')
    }
  })
  const head = parsed[0]
  const tail = parsed.at(-1)
  if (parsed.length < 2 || !Number.isSafeInteger(head?.lsn)) damaged('no header frame')
  if (tail?.end !== true || tail.records !== parsed.length - 2) damaged('no end frame')
  return { lsn: head!.lsn as number, records: parsed.slice(1, -1) as unknown as LogRecord[] }
}
