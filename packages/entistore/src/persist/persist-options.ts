/**
 * @module What a datastore kept in a folder is opened with (persist.ts) and what its start found
 * there: apart from the class, so that the loader and the CLI name them without it.
 */
import type { SliceTurns } from './take-slice.js'

/** Timers, injected: tests run a batch window or a deferred snapshot when they choose. */
export interface PersistTimers {
  /** Runs `fn` once after `ms` milliseconds; returns what `clear` takes. */
  set(fn: () => void, ms: number): unknown
  clear(handle: unknown): void
}

export interface PersistOptions {
  /** The folder (created if needed). One process at a time may use it. */
  readonly dir: string
  /**
   * When a write is flushed to disk: `'commit'`, before the commit returns (an acknowledged write
   * survives a crash of the machine); `'batch'`, at most `batchMs` later (one flush for every
   * write of the window; a crash of the machine loses the window's writes, a crash of the
   * process none). @default 'commit'
   */
  readonly fsync?: 'commit' | 'batch'
  /** The batch window, in milliseconds. @default 5 */
  readonly batchMs?: number
  /** Journal records between two snapshots. @default 10_000 */
  readonly snapshotEvery?: number
  /** Journal bytes that start a snapshot earlier. @default 64 MiB */
  readonly snapshotBytes?: number
  /**
   * Rows per record of a snapshot file. A record is made in one piece on the event loop: 1,000
   * short rows take about 1 ms in columns (2–4 ms as a change a row), 10,000 took 20–40 ms,
   * longer than a slice should hold it. @default 1_000
   */
  readonly rowsPerRecord?: number
  /**
   * @internal How long a served snapshot may hold the event loop making its frames before it
   * writes them and lets other work run (tests set 0: a frame a slice). @default 5
   */
  readonly sliceMs?: number
  /**
   * @internal The turns a served snapshot's slices share with the REST replies: a test gives the
   * one it gives the handler, on a clock that counts, to bound the work of each turn.
   * @default the event loop's
   */
  readonly turns?: SliceTurns
  /**
   * Records of this many bytes or more (a picture) are written off the event loop: the commit
   * returns before such a record is on disk, and `durable()` resolves once it is; a REST reply
   * waits for it. Records that come while one is being written wait for it too. Infinity: every
   * record is written inside its commit (the event loop waits: 60–80 ms for 16 MiB).
   * @default 0 once served (`wrap`: serve() does it, and its replies wait: every record is
   * written and flushed off the event loop, those that come meanwhile together), else Infinity
   */
  readonly backgroundBytes?: number
  /** @default setTimeout / clearTimeout, not keeping the process alive */
  readonly timers?: PersistTimers
  /**
   * Told of a deferred snapshot or batch flush that failed (nothing waits on them to throw to).
   * A failed flush also makes every later write fail with JournalFailed (9131).
   * @default process.emitWarning
   */
  readonly onError?: (error: Error) => void
}

/** What start-up found in the folder. */
export interface Recovery {
  /** The record number of the snapshot loaded, or undefined when there was none. */
  readonly snapshot: number | undefined
  /** Entities the snapshot held. */
  readonly snapshotEntities: number
  /** Journal records replayed after it. */
  readonly journalRecords: number
  /** Bytes of a torn last record cut off (0: the journal ended cleanly). */
  readonly tornBytes: number
  /** True when the folder held no data and the initial data, if any, was loaded instead. */
  readonly fresh: boolean
}
