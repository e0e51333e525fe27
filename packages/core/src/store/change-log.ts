/**
 * @module The change log: what one commit did, as a plain JSON-serializable record, and the replay
 * that applies such records through the same `Store.commit`. A journal (the `entistore` package's
 * `persist/`) writes one record per commit and a snapshot as records too; the core owns the format
 * and the replay, the file layer only frames and stores the text.
 *
 * A record holds each change's dataclass, op, key, stamp, timestamp and stored values (full rows:
 * an update carries the whole new version, so a record never depends on how the previous one was
 * written), then the global stamp and the autosequence values after the commit. Pictures and
 * BLOBs are `{"$base64", "type", "version"}` as in a data file (file-binary.ts), or, in a record
 * made with `{ binaries: 'attachments' }`, `{"$bytes": i, "type", "version"}` with the bytes
 * themselves in the record's `attachments`: a file that can hold bytes (the journal) skips base64,
 * which costs about a second for 16 MiB, and a third more bytes. Dates are already text, objects
 * already JSON. Null values are left out.
 *
 * Row ids are not in it: they are slots of one process's tables, and a table loaded from a
 * snapshot numbers its rows afresh. The replay finds entities by key and gives inserts the next
 * free slots, but for a restore's: a live restore puts a record back in its own slot, before rows
 * made after it, and sorted indexes tie in row-id order, so the replay puts it back in the slot
 * its key left in that replay (when it has one). Deletes of a record are replayed before its other
 * changes: a restore's changes can put back a key on one slot while taking it off another.
 */
import { isBinaryValue, type BinaryValue } from '../values/binary.js'
import type { StoredValue } from '../values/coerce.js'
import type { Change } from './changes.js'
import type { EntityRecord, KeyValue } from './entity-record.js'
import { attachedBinary, fileBinary } from './file-binary.js'
import type { DataClassDef } from '../schema/definitions.js'
import { isSnapshotRows, StagedRows, type SnapshotRows } from './snapshot-rows.js'
import { RowsWriter } from './rows-writer.js'
import type { CommitInfo, SequenceValues, Store } from './store.js'
import { openStoreView, storeOf, StoreView, type StoreSource } from './store-view.js'
import type { Table } from './table.js'
import {
  LOG_FORMAT,
  type LogChange,
  type LogRecord,
  type LogEncoding,
  type SnapshotEncoding,
  binaryWriter,
} from './log-record.js'
import { invalid, tableOf, decodeChange, Pending } from './log-decode.js'

/** The record of one commit, from what a commit listener receives. */
export function logRecordOf(
  source: StoreSource,
  changes: readonly Change[],
  info: CommitInfo,
  encoding: LogEncoding = {},
): LogRecord {
  const store = storeOf(source)
  if (info.kind === 'replay') throw new TypeError('logRecordOf: a replay is not logged again')
  const attachments = encoding.binaries === 'attachments' ? [] : undefined
  const binary = binaryWriter(attachments)
  const out: LogChange[] = []
  const touched = new Set<Table>()
  for (const c of changes)
    if (c.op === 'delete') {
      touched.add(c.table)
      out.push({ op: 'delete', dataClass: c.table.def.name, key: c.before.key })
    }
  for (const c of changes) {
    if (c.op === 'delete') continue
    const record = c.op === 'insert' ? c.record : c.after
    touched.add(c.table)
    out.push(rowChange(c.op, c.table, record, binary))
  }
  const tables = info.kind === 'restore' ? storeTables(store) : touched
  return {
    format: LOG_FORMAT,
    kind: info.kind,
    changes: out,
    globalStamp: info.globalStamp,
    sequences: sequencesOf(tables),
    ...(attachments && attachments.length > 0 ? { attachments } : {}),
  }
}

/**
 * The whole store as records of kind `snapshot`, at most `rowsPerRecord` rows each (so that no
 * record's text grows past what one string can hold; with attachments, also at most about
 * `attachmentBytes` of them), in key order per dataclass (see store-view.ts for a large table
 * whose order needs a sort). There is always at least one record: the last carries the global
 * stamp and sequences as every record does. Applied with `applyLogRecords` to an empty store,
 * they give the store back as it was.
 *
 * Made lazily, a record at a time, from a view (store-view.ts): given one, the records are the
 * store as it was when it was opened, however long the caller takes between two of them and
 * whatever is written meanwhile (each table's view is released once its rows are read); given a
 * store, from a view opened at the first record and released at the last.
 */
export function* snapshotRecords(
  source: StoreSource | StoreView,
  rowsPerRecord = 10_000,
  encoding: SnapshotEncoding = {},
): Generator<LogRecord, void, undefined> {
  yield* viewRecords(source, rowsPerRecord, encoding, false) as Generator<LogRecord>
}

/**
 * `snapshotRecords` with the rows in columns (snapshot-rows.ts): SnapshotRows records of at most
 * `rowsPerRecord` rows of a dataclass each, then one LogRecord of kind `snapshot` with no change,
 * which carries the global stamp and the sequences. About a third of the text of the records of
 * format 1, which a replay reads straight into columns.
 */
export function* snapshotRows(
  source: StoreSource | StoreView,
  rowsPerRecord = 10_000,
  encoding: SnapshotEncoding = {},
): Generator<SnapshotRows | LogRecord, void, undefined> {
  yield* viewRecords(source, rowsPerRecord, encoding, true)
}

function* viewRecords(
  source: StoreSource | StoreView,
  rowsPerRecord: number,
  encoding: SnapshotEncoding,
  inColumns: boolean,
): Generator<SnapshotRows | LogRecord, void, undefined> {
  const view = source instanceof StoreView ? source : openStoreView(source)
  try {
    yield* recordsOfView(view, rowsPerRecord, encoding, inColumns)
  } finally {
    if (view !== source) view.release()
  }
}

function* recordsOfView(
  view: StoreView,
  rowsPerRecord: number,
  encoding: SnapshotEncoding,
  inColumns: boolean,
): Generator<SnapshotRows | LogRecord, void, undefined> {
  const tables = view.tables
  const head = { format: LOG_FORMAT, kind: 'snapshot' } as const
  const globalStamp = view.globalStamp
  const sequences = sequencesOf(tables)
  const inAttachments = encoding.binaries === 'attachments'
  const attachmentBytes = encoding.attachmentBytes ?? 64 * 1024 * 1024
  let attachments: Uint8Array[] = []
  let bytes = 0
  // Counts the bytes of what it attaches, to end a record once they pass attachmentBytes.
  const binary = inAttachments
    ? (value: BinaryValue) => ((bytes += value.bytes.length), attachedBinary(value, attachments))
    : fileBinary
  // A record with the attachments made since the last one.
  const attached = <R extends LogRecord | SnapshotRows>(out: R): R => {
    if (attachments.length === 0) return out
    const made = { ...out, attachments }
    attachments = []
    bytes = 0
    return made
  }
  const record = (changes: LogChange[]): LogRecord =>
    attached({ ...head, changes, globalStamp, sequences })
  let any = false
  for (const table of tables) {
    if (inColumns) {
      const rows = new RowsWriter(table, binary)
      for (const rowId of table.rowIds()) {
        rows.add(rowId)
        if (rows.length >= rowsPerRecord || bytes >= attachmentBytes) yield attached(rows.take())
      }
      rows.end()
      if (rows.length > 0) yield attached(rows.take())
      table.release()
      continue
    }
    let changes: LogChange[] = []
    // Read through the table's readers: rows still in their load's columns get no Entity made
    // (table.record would make and keep one per row, and a snapshot reads every row).
    const readers = table.def.storage.map((attr) => table.reader(attr.name))
    for (const rowId of table.rowIds()) {
      changes.push(
        logChange(
          'insert',
          table,
          table.keyOf(rowId)!,
          table.stampOf(rowId)!,
          table.timestampOf(rowId)!,
          (i) => readers[i]!(rowId),
          binary,
        ),
      )
      if (changes.length >= rowsPerRecord || bytes >= attachmentBytes) {
        yield record(changes)
        any = true
        changes = []
      }
    }
    if (changes.length > 0) {
      yield record(changes)
      any = true
    }
    table.release()
  }
  // In columns, the global stamp and the sequences come in a record of their own.
  if (inColumns || !any) yield record([])
}

/** Applies one record through the store's commit (see applyLogRecords). */
export function applyLogRecord(source: StoreSource, record: LogRecord): void {
  applyLogRecords(source, [record])
}

/** Inserts in one replay from which their rows are kept in columns (see applyLogRecords). */
const REPLAY_COLUMNS_FROM = 1000

export interface ApplyLogOptions {
  /**
   * @internal From how many inserts the replay keeps their rows in columns (tests set 0 to put
   * small replays there too). @default 1000
   */
  readonly columnsFrom?: number
  /**
   * The records are this engine's own, read back whole from where it wrote them (the persist
   * layer's snapshot file, its magic and checksums checked): the values of snapshot rows (format
   * 2) whose JSON form is their stored form go into their columns unchecked (snapshot-rows.ts).
   * The records' shape, keys and stamps are checked all the same, and records of changes (format
   * 1) as always: a file that is not such a snapshot is refused as it was. @default false
   */
  readonly trusted?: boolean
}

/**
 * Applies `records`, in order, as ONE commit of kind `replay`: a snapshot's records and the
 * journal after it rebuild a store in one pass, with sorted indexes built once at the end. The
 * global stamp and sequences end as the last record says. Every record is decoded and checked
 * before anything is applied: a record that does not fit the store (an unknown dataclass or
 * attribute, a value of the wrong type, an update of a key that is not there) throws
 * InvalidLogRecord (9130) and leaves the store as it was.
 *
 * A snapshot's rows in columns (SnapshotRows, from `snapshotRows`) come first, before any record
 * of changes: their rows are checked into columns as they come, which the commit stores as a data
 * load's (no change, record or values object a row); the changes after them find them by key.
 */
export function applyLogRecords(
  source: StoreSource,
  records: Iterable<LogRecord | SnapshotRows>,
  options: ApplyLogOptions = {},
): void {
  const store = storeOf(source)
  const pending = new Pending()
  const changes: Change[] = []
  const stamps: number[] = []
  let globalStamp: number | undefined
  const sequences = new Map<Table, Map<string, number>>()
  let index = 0
  for (const record of records) {
    const where = `record ${index++}`
    if (isSnapshotRows(record)) {
      if (changes.length > 0) invalid(where, 'rows of a snapshot after the changes of commits')
      ;(pending.staged ??= new StagedRows(store, options.trusted === true)).add(record, where)
      continue
    }
    pending.staged?.finish(where)
    const format = (record as { format?: unknown } | undefined)?.format
    if (format !== LOG_FORMAT)
      invalid(where, `format ${JSON.stringify(format)}, expected ${LOG_FORMAT}`)
    if (!Array.isArray(record.changes)) invalid(where, 'no list of changes')
    const restored = record.kind === 'restore'
    record.changes.forEach((c, i) =>
      changes.push(decodeChange(store, c, pending, `${where}[${i}]`, record.attachments, restored)),
    )
    // A record's changes are in stamp order (deletes first: logRecordOf), ending at its stamp.
    const n = record.changes.length
    for (let i = 0; i < n; i++) stamps.push(record.globalStamp - n + i + 1)
    globalStamp = record.globalStamp
    for (const [name, values] of Object.entries(record.sequences ?? {})) {
      const table = tableOf(store, name, where)
      let seen = sequences.get(table)
      if (!seen) sequences.set(table, (seen = new Map()))
      for (const [attribute, v] of Object.entries(values)) {
        if (!table.autosequenced.includes(attribute) || !Number.isSafeInteger(v))
          invalid(where, `no autosequence ${name}.${attribute} for the value ${String(v)}`)
        seen.set(attribute, v)
      }
    }
  }
  if (globalStamp === undefined) {
    if (pending.staged) invalid('the last record', 'rows of a snapshot with no record after them')
    return
  }
  pending.staged?.finish('the last record')
  if (!Number.isSafeInteger(globalStamp) || globalStamp < 0)
    invalid('the last record', `the global stamp ${String(globalStamp)} is not valid`)
  // A start-up's replay of a snapshot of format 1 inserts every row of it: kept in columns, as a
  // data load's are, a restarted process holds its rows in the memory a fresh load takes
  // (records cost half as much again on short rows) and builds them faster. A follower's
  // catch-up of a few commits keeps records, rather than a set of columns per commit. (Rows of
  // format 2 are in columns already: `loaded`.)
  let inserts = 0
  for (const c of changes) if (c.op === 'insert') inserts++
  store.commit(changes, {
    kind: 'replay',
    replayed: { globalStamp, sequences: sequences as SequenceValues, stamps },
    columns: inserts >= (options.columnsFrom ?? REPLAY_COLUMNS_FROM),
    ...(pending.staged ? { loaded: pending.staged.loads() } : {}),
  })
}

// ---- encoding ----

function rowChange(
  op: 'insert' | 'update',
  table: Table,
  record: EntityRecord,
  binary: (value: BinaryValue) => unknown,
): LogChange {
  const storage = table.def.storage
  return logChange(
    op,
    table,
    record.key,
    record.stamp,
    record.timestamp,
    (i) => record.values[storage[i]!.name],
    binary,
  )
}

/** A row's change, its `i`th storage value read by `valueAt(i)`, its binaries written by `binary`. */
function logChange(
  op: 'insert' | 'update',
  table: { readonly def: DataClassDef },
  key: KeyValue,
  stamp: number,
  timestamp: number,
  valueAt: (i: number) => StoredValue | undefined,
  binary: (value: BinaryValue) => unknown,
): LogChange {
  const values: Record<string, unknown> = {}
  const storage = table.def.storage
  for (let i = 0; i < storage.length; i++) {
    const v = valueAt(i) ?? null
    if (v !== null) values[storage[i]!.name] = isBinaryValue(v) ? binary(v) : v
  }
  return { op, dataClass: table.def.name, key, stamp, timestamp, values }
}

function storeTables(store: Store): Table[] {
  return store.schema.dataClasses.map((dc) => store.table(dc.name))
}

/** What sequencesOf reads of a table (a Table, or a view of one). */
interface Sequenced {
  readonly def: DataClassDef
  readonly autosequenced: readonly string[]
  peekSequence(attribute: string): number
}

function sequencesOf(tables: Iterable<Sequenced>): LogRecord['sequences'] {
  const out: Record<string, Record<string, number>> = {}
  for (const table of tables) {
    if (table.autosequenced.length === 0) continue
    const values: Record<string, number> = {}
    for (const name of table.autosequenced) values[name] = table.peekSequence(name) - 1
    out[table.def.name] = values
  }
  return out
}
