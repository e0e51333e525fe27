/**
 * @module The store: one table per dataclass, the global stamp, the clock, and `commit`, the single
 * place where data changes.
 *
 * Invariant: `commit` applies a fully validated list of changes and cannot fail half-way. Loading,
 * saves, deletes and atomic batches all end there, so stamps, the global stamp, indexes and columns
 * always move together. The public Datastore (orda/) is built on a Store; the query engine reads
 * tables through it.
 */
import type { Clock } from '../clock/clock.js'
import { fail } from '../errors/datastore-error.js'
import type { SchemaDef } from '../schema/definitions.js'
import { ColumnInsert, type Change } from './changes.js'
import { DataSnapshot, restoredChanges } from './data-snapshot.js'
import {
  DataLoad,
  prepareDataLoad,
  type DataFile,
  type LoadedRows,
  type LoadProgress,
  type LoadReport,
} from './load-data.js'
import { Table } from './table.js'
import type { TableState } from './table-state.js'
import type { LoadTarget } from './load-target.js'
import { changeStamps, trackChanges } from './change-stamps.js'
import { BaseRows } from './base-rows.js'
import { NO_LOADS, storeLoaded, highestTracked, seen, loadColumns } from './load-commit.js'

// A commit this large (a data load) rebuilds sorted indexes once at the end instead of row by row.
const BULK_THRESHOLD = 1000

/**
 * Why a commit happened: a write (save, delete, atomic batch, transaction), a data load, a
 * `restore` of a snapshot, or the replay of a change log (change-log.ts). A journal writes the
 * first three and skips the last, which it is reading back itself.
 */
export type CommitKind = 'write' | 'load' | 'restore' | 'replay'

/** What a commit listener is told besides the changes. */
export interface CommitInfo {
  readonly kind: CommitKind
  /** The global stamp once the commit is applied. */
  readonly globalStamp: number
  /**
   * The global stamp before the commit's first change: a write's (or its replay's) changes took
   * the stamps after it, deletes first (`changeStamps`, change-stamps.ts). Equal to `globalStamp`
   * for a commit that moved no stamp (a load), and meaningless for a restore, which sets it.
   */
  readonly firstStamp: number
  /**
   * The stamp of each change (`stamps[i]` for `changes[i]`) when a replay applied several log
   * records in one commit: each record's changes took the stamps after its own start, which no
   * single `firstStamp` gives. Undefined otherwise: see `commitStamps`.
   */
  readonly stamps?: readonly number[]
}

/** The global stamp of each change of a commit a listener was told of (`stamps[i]` for `changes[i]`). */
export function commitStamps(changes: readonly Change[], info: CommitInfo): readonly number[] {
  return info.stamps ?? changeStamps(changes, info.firstStamp)
}

/** Something that observes every commit (journals, entity-set caches). */
export type CommitListener = (changes: readonly Change[], info: CommitInfo) => void

export interface CommitListenerOptions {
  /**
   * Whether the listener is told of a data load's rows (`kind: 'load'`), each as an insert, and of
   * the snapshot rows a replay stores from columns (`kind: 'replay'`). False: it is told that a
   * load happened, with no changes, and of a replay's other changes alone; no change object is
   * made for those rows (a journal that writes a snapshot after a load, an observer of deletes).
   * @default true
   */
  readonly loadRows?: boolean
}

// What a listener with `loadRows: false` is given for a load.
const NO_CHANGES: readonly Change[] = Object.freeze([])
// The options of a plain write: one object for all, not a new one each commit.
const NO_OPTIONS: CommitOptions = Object.freeze({})

/** The last autosequence value used, per table and attribute (0 when none was). */
export type SequenceValues = ReadonlyMap<Table, ReadonlyMap<string, number>>

export interface CommitOptions {
  /** Whether the global stamp moves by one per change. @default true (a load says false) */
  readonly countsAsModification?: boolean
  /** @internal What listeners are told. @default 'write' */
  readonly kind?: CommitKind
  /**
   * @internal Each table keeps the rows this commit inserts in columns (base-rows.ts), not as
   * records, and leaves its indexes to their first use: a large replay (a snapshot and the journal
   * after it; a data load has a commit of its own, `loadData`). Updates and deletes in the same
   * commit apply as usual, to rows in columns as to any. @default false
   */
  readonly columns?: boolean
  /**
   * @internal A change log's replay: the global stamp and the sequences as the log says they were
   * after the commit it replays. A restore can move both back, so they are set, not derived.
   */
  readonly replayed?: {
    readonly globalStamp: number
    readonly sequences: SequenceValues
    /** Each change's stamp, when the changes come from several records (CommitInfo.stamps). */
    readonly stamps?: readonly number[]
  }
  /**
   * @internal Rows already in columns of their own, stored before `changes` as a load's commit
   * stores them (a replay's snapshot rows: change-log.ts), their tables' indexes left to their
   * first use; `changes` may update and delete them. Listeners hear them as a load's rows: as
   * inserts before `changes`, or not at all with `loadRows: false`.
   */
  readonly loaded?: readonly LoadedRows[]
}

/** A data load fed batch by batch (`Store.beginLoad`). */
export interface DataLoader {
  /** Checks the next rows of dataclass `name`; throws for the first refused one (the load is then dead). */
  add(name: string, rows: unknown): void
  /** Rows checked so far. */
  readonly rows: number
  /**
   * Makes room for `rows` more rows of each dataclass read so far, while `more()` says so; true
   * once made. Between the batches of a load in slices, so that no batch grows a large structure
   * in one piece.
   */
  prepare(rows: number, more: () => boolean): boolean
  /** Checks the references left, then applies every row in one commit. */
  commit(): LoadReport
  /**
   * `commit`, in slices of about COMMIT_SLICE_ROWS rows with `pause()` awaited between them: for
   * a datastore built aside (a reload), whose commit of a million rows took 0.3 s in one piece.
   * Nobody may read or write the datastore until it resolves: it holds part of the rows meanwhile.
   */
  commitInSlices(pause: () => Promise<void>): Promise<LoadReport>
}

/** Rows a commit in slices stores between two pauses (about 10 ms on a busy machine). */
const COMMIT_SLICE_ROWS = 32_768

export class Store implements LoadTarget {
  readonly schema: SchemaDef
  readonly clock: Clock
  /** Generates ids for uuid keys. */
  readonly newUuid: () => string
  readonly #tables = new Map<string, Table>()
  readonly #listeners: { readonly listener: CommitListener; readonly loadRows: boolean }[] = []
  #globalStamp = 0
  // Moved by every commit, load, restore and setGlobalStamp (each tells its listeners).
  #version = 0
  // Told of a write's changes before they apply (the rows they delete still there).
  readonly #beforeWrite: ((changes: readonly Change[], stamps: readonly number[]) => void)[] = []

  /** `runBuild`: how the tables' indexes run a build on first use (IndexSet's constructor). */
  constructor(
    schema: SchemaDef,
    clock: Clock,
    newUuid: () => string,
    runBuild?: (build: () => void) => void,
  ) {
    this.schema = schema
    this.clock = clock
    this.newUuid = newUuid
    for (const def of schema.dataClasses) this.#tables.set(def.name, new Table(def, runBuild))
  }

  /** The table of dataclass `name`; throws DataClassNotFound (1800) if there is none. */
  table(name: string): Table {
    return this.#tables.get(name) ?? fail('DataClassNotFound', [name, this.#tables.keys()])
  }

  /** The table of dataclass `name`, or undefined. */
  findTable(name: string): Table | undefined {
    return this.#tables.get(name)
  }

  /** The server-wide modification stamp: +1 for every entity saved or deleted since the start. */
  get globalStamp(): number {
    return this.#globalStamp
  }

  /**
   * A number that moves at every change of the data (a commit of any kind, a load, a restore, a
   * new global stamp), and only then: a transaction open across awaits checks its writes against
   * the data again at its commit only when it moved since it began (txn/transaction.ts).
   */
  get version(): number {
    return this.#version
  }

  /**
   * Loads `{ "<DataClass>": [ {...}, ... ] }`: every row is checked first, then one commit applies
   * them all. Loading does not move the global stamp (it is not a modification).
   */
  loadData(data: DataFile, onProgress?: (progress: LoadProgress) => void): LoadReport {
    const { loads, report } = prepareDataLoad(this, data, onProgress)
    let rows = 0
    for (const { base } of loads) rows += base.length
    onProgress?.({ phase: 'commit', rows, total: rows })
    for (const _ of this.#commitLoad(loads));
    onProgress?.({ phase: 'done', rows, total: rows })
    return report
  }

  /**
   * A load fed batch by batch (a data file read as a stream): `add` checks each batch, `commit`
   * applies them all at once, as `loadData` does a whole file. Nothing may write to the store
   * between the two: the load claimed its row ids, keys and unique values against the store as it
   * was, and `commit` throws a TypeError if it moved.
   */
  beginLoad(onProgress?: (progress: LoadProgress) => void): DataLoader {
    const load = new DataLoad(this, onProgress)
    const stamp = this.#globalStamp
    const nextRowIds = new Map([...this.#tables.values()].map((t) => [t, t.nextRowId] as const))
    const ready = (): { loads: LoadedRows[]; rows: number; report: LoadReport } => {
      const { loads, report } = load.finish()
      if (
        this.#globalStamp !== stamp ||
        [...nextRowIds].some(([table, next]) => table.nextRowId !== next)
      )
        throw new TypeError('commit: the datastore was written to while the load was read')
      let rows = 0
      for (const { base } of loads) rows += base.length
      return { loads, rows, report }
    }
    return {
      add: (name, rows) => load.add(name, rows),
      prepare: (rows, more) => load.prepare(rows, more),
      get rows() {
        return load.rows
      },
      commit: () => {
        const { loads, rows, report } = ready()
        onProgress?.({ phase: 'commit', rows, total: rows })
        for (const _ of this.#commitLoad(loads));
        onProgress?.({ phase: 'done', rows, total: rows })
        return report
      },
      commitInSlices: async (pause) => {
        const { loads, rows, report } = ready()
        onProgress?.({ phase: 'commit', rows, total: rows })
        let since = 0
        for (const stored of this.#commitLoad(loads))
          if ((since += stored) >= COMMIT_SLICE_ROWS) {
            since = 0
            await pause()
          }
        onProgress?.({ phase: 'done', rows, total: rows })
        return report
      },
    }
  }

  /**
   * A data load's commit: each table takes its rows from the columns the load wrote (no record,
   * no change object per row), its indexes left to their first use. Listeners are told of every
   * row as an insert (a ColumnInsert, whose record is made if read), but for those registered
   * with `loadRows: false`, which get an empty list: making 200,000 change objects that nobody
   * reads was a fifth of a load. A table may have several batches of columns (a streamed load).
   */
  *#commitLoad(loads: readonly LoadedRows[]): Generator<number, void> {
    const byTable = new Map<Table, BaseRows[]>()
    for (const { table, base } of loads) {
      const bases = byTable.get(table)
      if (bases) bases.push(base)
      else byTable.set(table, [base])
    }
    for (const [table, bases] of byTable) {
      table.reserve(bases.reduce((n, b) => n + b.length, 0))
      table.indexes.beginBulk({ deferred: true })
      for (const base of bases) {
        storeLoaded(table, base)
        // The rows stored: a commit in slices may stop here.
        yield base.length
      }
      table.indexes.endBulk(table)
    }
    // Loaded global stamps (a data file saved from a tracked datastore): the stamp never goes
    // back behind one of them, or a sync would miss the next changes.
    this.#globalStamp = Math.max(this.#globalStamp, highestTracked(loads))
    this.#tell(NO_CHANGES, 'load', loads)
  }

  /** The data as it is now, to `restore` later (see data-snapshot.ts). */
  snapshot(): DataSnapshot {
    const tables = new Map<Table, TableState>()
    for (const table of this.#tables.values()) tables.set(table, table.captureState())
    return new DataSnapshot(this, this.#globalStamp, tables)
  }

  /**
   * Puts the data back as it was when `snapshot` was taken: rows, keys, stamps, sequences, indexes
   * and the global stamp. Commit listeners are told of the records that changed, as changes
   * (kind `restore`), also when only the global stamp or a sequence moved back (a journal must
   * hear of those too); a restore that changes nothing is not told. Throws a TypeError for a
   * snapshot of another store.
   */
  restore(snapshot: DataSnapshot): void {
    if (!(snapshot instanceof DataSnapshot) || snapshot.store !== this)
      throw new TypeError('restore: this snapshot was not taken from this datastore')
    const changes: Change[] = []
    let sequencesMoved = false
    for (const [table, state] of snapshot.tables) {
      const before = table.autosequenced.map((name) => table.peekSequence(name))
      restoredChanges(table, table.restoreState(state), changes)
      if (table.autosequenced.some((name, i) => table.peekSequence(name) !== before[i]))
        sequencesMoved = true
    }
    const stampMoved = this.#globalStamp !== snapshot.globalStamp
    this.#globalStamp = snapshot.globalStamp
    if (changes.length > 0 || stampMoved || sequencesMoved) this.#tell(changes, 'restore')
  }

  /**
   * Registers `fn`, told of each write's changes before they apply, while the rows they update or
   * delete are still as they were (who may learn of a deletion is decided there), with the global
   * stamp each change takes (`stamps[i]` for `changes[i]`); a replay of another process's write
   * (cluster, journal) is told too. It must not throw nor write: the commit cannot fail. Returns
   * the function that removes it.
   */
  beforeWrite(fn: (changes: readonly Change[], stamps: readonly number[]) => void): () => void {
    this.#beforeWrite.push(fn)
    return () => {
      const i = this.#beforeWrite.indexOf(fn)
      if (i >= 0) this.#beforeWrite.splice(i, 1)
    }
  }

  /** Registers a commit observer; returns the function that removes it. */
  onCommit(listener: CommitListener, options: CommitListenerOptions = {}): () => void {
    const entry = { listener, loadRows: options.loadRows ?? true }
    this.#listeners.push(entry)
    return () => {
      const i = this.#listeners.indexOf(entry)
      if (i >= 0) this.#listeners.splice(i, 1)
    }
  }

  /**
   * The single place where data changes. `changes` must be fully validated: applying them cannot
   * fail, so a batch is all or nothing. With `columns` (a data load, a large replay), each table
   * keeps the rows inserted in columns (base-rows.ts), not as records.
   */
  commit(given: readonly Change[], options: CommitOptions = NO_OPTIONS): void {
    const loaded = options.loaded ?? NO_LOADS
    const counts = options.replayed === undefined && (options.countsAsModification ?? true)
    if (this.#beforeWrite.length > 0 && (counts || options.replayed !== undefined))
      this.#before(given, options.replayed)
    // A write of a tracked dataclass writes its global stamps and deleted rows (change-stamps.ts);
    // a replay has them in its rows already.
    const changes = counts ? trackChanges(this, given, this.#globalStamp) : given
    // A load or a large replay, whatever its size, leaves its tables' indexes to be built on first
    // use; other commits of many changes rebuild sorted indexes once at the end.
    const deferred = options.columns === true || loaded.length > 0
    // Made only for a bulk commit: a Set for every single write was garbage of its own.
    const bulk = deferred || changes.length >= BULK_THRESHOLD ? new Set<Table>() : undefined
    if (bulk !== undefined) {
      for (const { table } of loaded) bulk.add(table)
      for (const c of changes) bulk.add(c.table)
      for (const t of bulk) t.indexes.beginBulk({ deferred })
    }
    for (const { table, base } of loaded) storeLoaded(table, base)
    const columns = options.columns ? loadColumns(changes) : undefined
    // The highest autosequence value inserted, per table and attribute: noted once at the end.
    let sequences: Map<Table, Map<string, number>> | undefined
    for (const change of changes) {
      switch (change.op) {
        case 'insert': {
          const table = change.table
          const record = change.record
          // The columns take the new rows alone, each at the end of the table as it comes; a row a
          // replay puts back in a slot left empty (a restore's, change-log.ts) is kept as a record.
          const base = columns?.get(table)
          table.insert(record, base && record.rowId >= table.nextRowId ? base : undefined)
          for (const name of table.autosequenced)
            seen((sequences ??= new Map()), table, name, record.values[name])
          break
        }
        case 'update':
          change.table.replace(change.after)
          break
        case 'delete':
          change.table.delete(change.before.rowId)
          break
      }
    }
    if (sequences)
      for (const [table, values] of sequences)
        for (const [name, v] of values) table.noteSequence(name, v)
    if (bulk !== undefined) for (const t of bulk) t.indexes.endBulk(t)
    const replayed = options.replayed
    let first = this.#globalStamp
    if (replayed) {
      for (const [table, values] of replayed.sequences)
        for (const [name, v] of values) table.resetSequence(name, v)
      this.#globalStamp = replayed.globalStamp
      first =
        replayed.stamps !== undefined && replayed.stamps.length > 0
          ? replayed.stamps[0]! - 1
          : replayed.globalStamp - changes.length
    } else if (counts) this.#globalStamp += changes.length
    this.#tell(changes, options.kind ?? 'write', loaded, first, replayed?.stamps)
  }

  // Tells the beforeWrite functions of a write, or of a replay of another process's write (its
  // deletions are witnessed here too), with the stamp each change takes.
  #before(given: readonly Change[], replayed: CommitOptions['replayed']): void {
    let stamps: readonly number[]
    if (replayed === undefined) stamps = changeStamps(given, this.#globalStamp)
    else if (replayed.stamps !== undefined && replayed.stamps.length === given.length)
      stamps = replayed.stamps
    else stamps = changeStamps(given, replayed.globalStamp - given.length)
    for (const fn of this.#beforeWrite) fn(given, stamps)
  }

  /**
   * Sets the global stamp (4D's `ds.setGlobalStamp()`): the next change takes `stamp + 1`.
   * Listeners are told of a write with no change, so that a journal keeps it. Throws a RangeError
   * for a value that is not a non-negative safe integer.
   */
  setGlobalStamp(stamp: number): void {
    if (!Number.isSafeInteger(stamp) || stamp < 0)
      throw new RangeError(`setGlobalStamp: ${String(stamp)} is not a non-negative integer`)
    this.#globalStamp = stamp
    this.#tell(NO_CHANGES, 'write', NO_LOADS, stamp)
  }

  /**
   * Tells the listeners of a commit: `loaded`, rows stored from columns, as inserts before
   * `changes` (a ColumnInsert each, whose record is made if read), but to those registered with
   * `loadRows: false`, which get `changes` alone: making a million change objects that nobody
   * reads was a fifth of a load.
   */
  #tell(
    changes: readonly Change[],
    kind: CommitKind,
    loaded: readonly LoadedRows[] = [],
    firstStamp = this.#globalStamp,
    stamps?: readonly number[],
  ): void {
    this.#version++
    const info: CommitInfo =
      stamps === undefined
        ? { kind, globalStamp: this.#globalStamp, firstStamp }
        : { kind, globalStamp: this.#globalStamp, firstStamp, stamps }
    let all: readonly Change[] | undefined
    for (const { listener, loadRows } of this.#listeners) {
      if (!loadRows || loaded.length === 0) {
        listener(changes, info)
        continue
      }
      all ??= [
        ...loaded.flatMap(({ table, base }) =>
          Array.from(
            { length: base.length },
            (_, i) => new ColumnInsert(table, base, base.start + i),
          ),
        ),
        ...changes,
      ]
      listener(all, info)
    }
  }
}
