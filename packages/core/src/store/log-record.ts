/**
 * @module The change log's record format: what one commit did as a plain JSON-serializable record
 * (change-log.ts says what it holds and why), and the encodings of binaries a record may use.
 */
import type { BinaryValue } from '../values/binary.js'
import type { KeyValue } from './entity-record.js'
import { attachedBinary, fileBinary } from './file-binary.js'

/** The version of the record format; a record of another one is refused. */
export const LOG_FORMAT = 1

/** Why a record was written: a commit's kind, or a part of a snapshot (snapshotRecords). */
export type LogRecordKind = 'write' | 'load' | 'restore' | 'snapshot'

/** Stored values by attribute name, in their JSON form; nulls left out. */
export type LogValues = { readonly [attribute: string]: unknown }

export type LogChange =
  | {
      readonly op: 'insert' | 'update'
      readonly dataClass: string
      readonly key: KeyValue
      readonly stamp: number
      readonly timestamp: number
      readonly values: LogValues
    }
  | { readonly op: 'delete'; readonly dataClass: string; readonly key: KeyValue }

/**
 * One commit, JSON-serializable (`JSON.stringify` / `JSON.parse` give it back as it was), but for
 * its `attachments`, which are bytes: a file keeps them apart from the record's text.
 */
export interface LogRecord {
  readonly format: typeof LOG_FORMAT
  readonly kind: LogRecordKind
  readonly changes: readonly LogChange[]
  /** The global stamp after the commit. */
  readonly globalStamp: number
  /**
   * The last value each autosequence attribute has used after the commit (0: none), for the
   * dataclasses the commit touched (every dataclass for a restore or a snapshot).
   */
  readonly sequences: { readonly [dataClass: string]: { readonly [attribute: string]: number } }
  /**
   * The bytes of the pictures and BLOBs written `{"$bytes": i, …}` (attachment `i`), in a record
   * made with `{ binaries: 'attachments' }`; absent in one of plain JSON. The bytes are the
   * store's own (values are never changed in place), not copies.
   */
  readonly attachments?: readonly Uint8Array[]
}

/** How a record holds pictures and BLOBs. */
export interface LogEncoding {
  /**
   * `'base64'`: as a data file does, `{"$base64", …}` (a record of plain JSON, for a log that is
   * text); `'attachments'`: `{"$bytes": i, …}`, the bytes in the record's `attachments`.
   * @default 'base64'
   */
  readonly binaries?: 'base64' | 'attachments'
}

/** How snapshotRecords cuts and writes its records. */
export interface SnapshotEncoding extends LogEncoding {
  /**
   * With attachments, a record ends once they hold this many bytes, even before `rowsPerRecord`
   * rows: a file frames a record with its attachments, and a frame must stay small enough for
   * one buffer. @default 64 MiB
   */
  readonly attachmentBytes?: number
}

/** Writes a picture or BLOB into a record: as base64, or into the attachments given. */
export const binaryWriter = (
  attachments: Uint8Array[] | undefined,
): ((value: BinaryValue) => unknown) =>
  attachments ? (value) => attachedBinary(value, attachments) : fileBinary
