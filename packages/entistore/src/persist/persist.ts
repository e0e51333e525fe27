/**
 * @module A datastore kept in a folder: a journal of every commit and snapshots that compact it
 * (docs/durability.md says what is guaranteed).
 *
 * Start-up reads the newest snapshot and the journal after it, and replays them through the core's
 * `applyLogRecords` (one commit): the snapshot's rows, in columns (the core's `snapshotRows`), go
 * straight into a load's columns as its frames are read; a torn last record is cut off. Then every commit — writes,
 * loads, restores — reaches the listener this installs, synchronously inside the commit: a write's
 * record is appended and, by default, flushed (fdatasync) before the commit returns, so a REST
 * reply is sent only once its write is on disk. With `fsync: 'batch'` the record is still written
 * to the file at once (a crash of the process loses nothing), and flushed within `batchMs` (a
 * crash of the machine can lose that window). A data load is made durable by a snapshot instead
 * of a record, since its record would be as large as one. Pictures and BLOBs are written as bytes
 * (the record's attachments), not base64.
 *
 * Served (`wrap`, which serve() applies), every record is written and flushed off the event loop
 * instead (journal.ts; `backgroundBytes` sets from what size, unserved too): the commit returns at
 * once, the REST reply waits until its record is safe, and the records that come meanwhile are
 * written together, one write and one flush.
 *
 * A snapshot is taken every `snapshotEvery` records or `snapshotBytes` of journal (on the next
 * turn of the event loop, not inside the write that crossed the line) and on `snapshot()`: a
 * view of the store is opened (the core's store-view.ts: O(tables), it keeps the moment while
 * writes go on), a new segment starts, and the file is made and written a slice of a few
 * milliseconds at a time, off the event loop between two, while the journal takes the writes
 * that come meanwhile; then the older files go.
 */
import { mkdirSync } from 'node:fs'
import {
  datastoreError,
  DatastoreError,
  logRecordOf,
  openStoreView,
  snapshotRows,
  type Datastore,
  type StoreView,
} from '@entistore/core'
import type { RestCore } from '@entistore/rest'
import { durableReplies } from './durable-replies.js'
import { removeDurably, removeDurablyAsync } from './durable-files.js'
import { Journal, JournalSegment, readSegment } from './journal.js'
import { JOURNAL_MAGIC, listDir } from './persist-dir.js'
import type { PersistOptions, PersistTimers, Recovery } from './persist-options.js'
import { chain, obsolete, recordsAfter, replay } from './recovery.js'
import { readSnapshotFile, writeSnapshotFile, writeSnapshotFileAsync } from './snapshot-file.js'
import type { SliceTurns } from './take-slice.js'

/** Pictures and BLOBs as bytes in every record written here. */
const ATTACHED = { binaries: 'attachments' } as const

const defaultTimers: PersistTimers = {
  set: (fn, ms) => setTimeout(fn, ms).unref(),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

export class Persistence {
  readonly dir: string
  readonly recovery: Recovery
  readonly #ds: Datastore
  readonly #fsync: 'commit' | 'batch'
  readonly #batchMs: number
  readonly #snapshotEvery: number
  readonly #snapshotBytes: number
  readonly #rowsPerRecord: number
  readonly #sliceMs: number | undefined
  readonly #turns: SliceTurns | undefined
  readonly #backgroundBytes: number | undefined
  readonly #timers: PersistTimers
  readonly #onError: (error: Error) => void
  readonly #journal: Journal
  /** The number of the last record written (or replayed). */
  #lsn: number
  #snapshotLsn: number
  #batchTimer: unknown
  #snapshotTimer: unknown
  /** The snapshot being written off the event loop. */
  #snapshotting: Promise<void> | undefined
  #served = false
  #failed: DatastoreError | undefined
  #closed: Promise<void> | undefined
  readonly #off: () => void

  /**
   * Opens `options.dir` for `ds`, which must be empty: replays what the folder holds into it, or,
   * when it holds nothing, calls `initial(ds)` (a data load) and writes that as the first
   * snapshot. Throws a FileError naming the file for damage a crash cannot make.
   */
  static open(
    ds: Datastore,
    options: PersistOptions,
    initial?: (ds: Datastore) => void,
  ): Persistence {
    return new Persistence(ds, options, initial)
  }

  private constructor(
    ds: Datastore,
    options: PersistOptions,
    initial: ((ds: Datastore) => void) | undefined,
  ) {
    this.dir = options.dir
    this.#ds = ds
    this.#fsync = options.fsync ?? 'commit'
    this.#batchMs = options.batchMs ?? 5
    this.#snapshotEvery = options.snapshotEvery ?? 10_000
    this.#snapshotBytes = options.snapshotBytes ?? 64 * 1024 * 1024
    this.#rowsPerRecord = options.rowsPerRecord ?? 1_000
    this.#sliceMs = options.sliceMs
    this.#turns = options.turns
    this.#backgroundBytes = options.backgroundBytes
    this.#timers = options.timers ?? defaultTimers
    this.#onError = options.onError ?? ((e) => process.emitWarning(e))
    mkdirSync(this.dir, { recursive: true })
    const listing = listDir(this.dir)
    removeDurably(this.dir, listing.temps)

    // The newest snapshot, then every record after it, in one commit.
    const newest = listing.snapshots.at(-1)
    const snapshot = newest ? readSnapshotFile(newest.file) : undefined
    const base = snapshot?.lsn ?? 0
    const read = listing.segments.map((s) => ({ ...s, read: readSegment(s.file) }))
    const after = recordsAfter(base, read)
    const fresh = snapshot === undefined && after.length === 0
    if (fresh) initial?.(ds)
    // The snapshot's records are read from its file as the replay takes them.
    else
      replay(
        ds,
        this.dir,
        chain(
          snapshot?.records ?? [],
          after.map((e) => e.record),
        ),
      )
    this.#lsn = after.at(-1)?.lsn ?? base
    this.#snapshotLsn = base

    // Appends go to the last segment, its torn tail cut off, or to a new one. A segment of the
    // first framing is read, never appended to: a new one starts after it (replacing it when it
    // holds no record, its name being the new one's).
    const last = read.at(-1)
    const tornBytes = last ? last.read.size - last.read.end : 0
    let segment = last
      ? JournalSegment.reopen(last.file, last.lsn, last.read.end, last.read.size)
      : JournalSegment.create(this.dir, this.#lsn + 1)
    if (last?.read.version === 1) {
      segment.close()
      segment = JournalSegment.create(this.dir, this.#lsn + 1)
    }
    const bytes = last?.read.version === 2 ? last.read.end : JOURNAL_MAGIC.length
    this.#journal = new Journal(segment, bytes, this.#lsn, {
      fsync: this.#fsync,
      // Served, every record is written and flushed off the event loop, its reply waiting for it
      // (wrap), the records that come meanwhile together (one write, one flush). A record's
      // fdatasync inside its commit held the loop for the disk: 57% of its time during 10,000
      // writes by 8 clients at a million rows, and up to 100 ms a record while a snapshot kept the
      // disk busy.
      backgroundBytes: () => this.#backgroundBytes ?? (this.#served ? 0 : Infinity),
      failed: (e) => {
        const error = this.#fail(e)
        this.#onError(error)
        return error
      },
    })
    // Files a crash left behind after a snapshot: older snapshots, segments it covers.
    removeDurably(this.dir, obsolete(listing.snapshots, read, base, segment.file))
    this.recovery = {
      snapshot: snapshot?.lsn,
      snapshotEntities: snapshot?.entities() ?? 0,
      journalRecords: after.length,
      tornBytes,
      fresh,
    }
    // Loaded data is written as the first snapshot: the next start reads it instead of the file.
    if (fresh && ds.dataClasses.some((dc) => dc.length > 0)) this.#writeSnapshotNow()
    // A load is written as a snapshot, read from the datastore: its rows need not be listed.
    this.#off = ds.onCommit(
      (changes, info) => {
        if (info.kind === 'replay') return
        if (this.#failed) throw this.#failed
        try {
          if (this.#closed) throw new Error('the datastore was closed')
          this.#lsn++
          if (info.kind === 'load') return this.#snapshotLoad()
          this.#journal.append(this.#lsn, logRecordOf(ds, changes, info, ATTACHED))
          if (this.#fsync === 'batch')
            this.#batchTimer ??= this.#timers.set(() => this.#flushBatch(), this.#batchMs)
        } catch (e) {
          throw this.#fail(e)
        }
        if (
          this.#lsn - this.#snapshotLsn >= this.#snapshotEvery ||
          this.#journal.bytes >= this.#snapshotBytes
        )
          this.#snapshotTimer ??= this.#timers.set(() => this.#deferredSnapshot(), 0)
      },
      { loadRows: false },
    )
  }

  /** The number of the last record written: one per journaled commit since the folder was made. */
  get lsn(): number {
    return this.#lsn
  }

  /** The record number of the last snapshot (0 before any). */
  get snapshotLsn(): number {
    return this.#snapshotLsn
  }

  /** Journal bytes since the last snapshot. */
  get journalBytes(): number {
    return this.#journal.bytes
  }

  /**
   * Takes a snapshot of the datastore as it is now (a view of it) and starts a new journal
   * segment; once the snapshot is on disk, the older files are removed. Its records are made and
   * written a slice of a few milliseconds at a time: requests and writes run between two.
   * Resolves once it is on disk.
   */
  async snapshot(): Promise<void> {
    if (this.#closed) throw new Error('snapshot: the persistence is closed')
    while (this.#snapshotting) await this.#snapshotting.catch(() => undefined)
    await this.#startSnapshot()
  }

  /** Whether some record is not yet as safe as `fsync` promises (being written off the loop). */
  get pending(): boolean {
    return this.#journal.pending
  }

  /**
   * Resolves once every record written so far is as safe as `fsync` promises (flushed to the disk
   * with 'commit', written to the file with 'batch'): at once, unless records are being written
   * off the event loop (`backgroundBytes`). Rejects with JournalFailed (9131) if they cannot be.
   */
  durable(): Promise<void> {
    return this.#journal.whenSafe() ?? Promise.resolve()
  }

  /** Resolves once nothing is being written: no pending record, no snapshot in progress. */
  async idle(): Promise<void> {
    while (this.#snapshotting || !this.#journal.idle) {
      await this.#snapshotting?.catch(() => undefined)
      await this.#journal.drained()
    }
  }

  /**
   * `core` with its replies sent only once the records of the commits before them are safe (see
   * `durable`): a reply waits while a large record is written off the event loop, and answers
   * 503 JournalFailed (9131) if it cannot be. From then on every record is written so (unless
   * `backgroundBytes` says from what size). serve() applies it to a datastore made with `persist`.
   */
  wrap(core: RestCore): RestCore {
    this.#served = true
    return durableReplies(core, this)
  }

  /**
   * `open`, taking writes; `failed`, a flush failed and every write is refused (JournalFailed);
   * `closed`. The health endpoint shows it, so that a load balancer can tell a server whose
   * writes all fail from a healthy one.
   */
  get state(): 'open' | 'failed' | 'closed' {
    return this.#closed ? 'closed' : this.#failed ? 'failed' : 'open'
  }

  /**
   * Flushes the writes of the current batch window now (nothing to do with `fsync: 'commit'`);
   * records still being written off the event loop are flushed once written.
   */
  flush(): void {
    if (this.#batchTimer !== undefined) this.#timers.clear(this.#batchTimer)
    this.#batchTimer = undefined
    this.#journal.flush()
  }

  /**
   * Flushes and closes the journal, once what is being written is (at once when nothing is). The
   * datastore stays readable; a write to it afterwards fails with JournalFailed (9131), as it
   * could not be made durable.
   */
  close(): Promise<void> {
    if (this.#closed) return this.#closed
    if (this.#snapshotTimer !== undefined) this.#timers.clear(this.#snapshotTimer)
    if (this.#batchTimer !== undefined) this.#timers.clear(this.#batchTimer)
    this.#batchTimer = this.#snapshotTimer = undefined
    if (!this.#snapshotting && this.#journal.idle) {
      this.#closed = Promise.resolve()
      this.#journal.close()
    } else this.#closed = this.idle().then(() => this.#journal.close())
    return this.#closed
  }

  /** Stops journaling (the datastore is thrown away, as a test does): no flush, no more errors. */
  detach(): void {
    this.close().catch(() => undefined)
    this.#off()
  }

  /** Writes a snapshot at once (at start-up, or a load when nothing is being written). */
  #writeSnapshotNow(): void {
    this.#clearSnapshotTimer()
    const lsn = this.#lsn
    writeSnapshotFile(this.dir, lsn, snapshotRows(this.#ds, this.#rowsPerRecord, ATTACHED))
    this.#snapshotLsn = lsn
    // The current segment already starts after this snapshot when nothing was written since
    // the last one: it stays.
    if (this.#journal.first !== lsn + 1) this.#journal.rotateSync(this.dir, lsn + 1)
    this.#removeBefore(lsn)
  }

  /**
   * A load's commit: its record is the snapshot. At once when nothing is being written and the
   * store is not served; else from a view opened now, in slices, in the journal's order, the
   * records after it waiting for it.
   */
  #snapshotLoad(): void {
    if (this.#journal.idle && !this.#served) return this.#writeSnapshotNow()
    this.#clearSnapshotTimer()
    const lsn = this.#lsn
    const { write, view } = this.#viewWriter(lsn)
    const written = this.#journal.after(lsn, async () => {
      await write()
    })
    // A journal that failed first never runs the write: the view is released all the same.
    written.catch(() => view.release())
    const rotated = this.#journal.rotate(this.dir, lsn + 1)
    // A failure fails the journal, which reports it: the records after the load are refused.
    this.#track(Promise.all([written, rotated]), lsn).catch(() => undefined)
  }

  /**
   * A snapshot of the store as it is now: a view opened at once; the new segment started (at
   * once when nothing is being written, else after what is); the file made and written in
   * slices, beside the records that go on being written to the new segment.
   */
  #startSnapshot(): Promise<void> {
    this.#clearSnapshotTimer()
    const lsn = this.#lsn
    const { write } = this.#viewWriter(lsn)
    let rotated: Promise<void> | undefined
    if (this.#journal.first !== lsn + 1) {
      // Served, the segment starts off the event loop too: its flush and creation (fdatasync,
      // fsync of the folder) held the loop 20-80 ms while the disk was busy with writes.
      if (this.#journal.idle && !this.#served) this.#journal.rotateSync(this.dir, lsn + 1)
      else rotated = this.#journal.rotate(this.dir, lsn + 1)
    }
    return this.#track(Promise.all([write(), rotated]), lsn)
  }

  /**
   * Opens a view of the store now (record `lsn`'s moment), and returns what writes it as the
   * snapshot after `lsn`, in slices, when called; the view is released once written or failed.
   */
  #viewWriter(lsn: number): { write: () => Promise<unknown>; view: StoreView } {
    const view = openStoreView(this.#ds)
    const write = () =>
      writeSnapshotFileAsync(
        this.dir,
        lsn,
        snapshotRows(view, this.#rowsPerRecord, ATTACHED),
        this.#sliceMs,
        this.#turns,
      ).finally(() => view.release())
    return { write, view }
  }

  /**
   * Waits for a snapshot of record `lsn` to be written and its segment started, then tidies; the
   * next snapshot waits for this one (`#snapshotting`, which never rejects).
   */
  #track(done: Promise<unknown>, lsn: number): Promise<void> {
    const snapshotting = done.then(() => {
      this.#snapshotLsn = Math.max(this.#snapshotLsn, lsn)
      return removeDurablyAsync(this.dir, this.#filesBefore(lsn))
    })
    const settled: Promise<void> = snapshotting
      .catch(() => undefined)
      .then(() => {
        if (this.#snapshotting === settled) this.#snapshotting = undefined
      })
    this.#snapshotting = settled
    return snapshotting
  }

  /** Every record up to `lsn` is in a snapshot on disk: older snapshots and segments can go. */
  #removeBefore(lsn: number): void {
    removeDurably(this.dir, this.#filesBefore(lsn))
  }

  /** The snapshots and segments that the snapshot of record `lsn` makes obsolete. */
  #filesBefore(lsn: number): string[] {
    const listing = listDir(this.dir)
    const current = this.#journal.segment.file
    return [
      ...listing.snapshots.filter((s) => s.lsn < lsn).map((s) => s.file),
      ...listing.segments.filter((s) => s.lsn <= lsn && s.file !== current).map((s) => s.file),
    ]
  }

  #clearSnapshotTimer(): void {
    if (this.#snapshotTimer !== undefined) this.#timers.clear(this.#snapshotTimer)
    this.#snapshotTimer = undefined
  }

  #flushBatch(): void {
    this.#batchTimer = undefined
    if (this.#closed || this.#failed) return
    try {
      this.#journal.flush()
    } catch (e) {
      this.#onError(this.#fail(e))
    }
  }

  #deferredSnapshot(): void {
    this.#snapshotTimer = undefined
    if (this.#closed || this.#failed || this.#snapshotting) return
    // The journal is still whole if it fails: writes go on, and the next record tries again.
    this.#startSnapshot().catch((e: Error) => this.#onError(e))
  }

  /** From now on every write fails: the journal may have lost its place. */
  #fail(e: unknown): DatastoreError {
    const reason = (e as NodeJS.ErrnoException).code ?? (e as Error).message ?? String(e)
    this.#failed ??= datastoreError('JournalFailed', [reason], { cause: e })
    return this.#failed
  }
}
