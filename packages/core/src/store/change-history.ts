/**
 * @module The recent changes of a datastore, each under its global stamp: what a live feed
 * (orda/feed/change-feed.ts) reads to send a subscriber the changes after its resume point, and what
 * lets every subscriber read from one shared list instead of a buffer of its own.
 *
 * A ring of at most `size` events `{ stamp, table, op, key }`, in stamp order, fed by a commit
 * listener the Datastore registers from its constructor (so a subscriber may resume from a stamp
 * given before it subscribed). Writes and replays (a journal's, a cluster follower's: other
 * processes' commits) are recorded alike, each change under the stamp `changeStamps` gives it, so
 * that stamps agree across processes. A record holds no copy of the entity: its table, key, op and
 * stamp (typed arrays and two plain arrays: a few stores per change, nothing allocated).
 *
 * `floor` is the stamp at or below which the ring is no longer complete: a resume from a stamp
 * under it cannot be lossless. A load, a restore, or stamps that go back (a revert, a smaller
 * `setGlobalStamp`) or jump over changes not told of start a new `epoch`: the ring is emptied and
 * subscribers are told to pull again (a `reset`).
 *
 * The latest stamp of each key (what coalescing asks: "has this entity a later event?") is kept
 * only while a feed has subscribers (`track`): a datastore nobody follows pays nothing for it.
 */
import type { KeyValue } from './entity-record.js'
import type { Change } from './changes.js'
import type { CommitInfo, Store } from './store.js'
import type { Table } from './table.js'

export interface ChangeHistoryOptions {
  /**
   * How many change events the history keeps (each change of a write or replay is one). A live
   * feed's subscriber may resume losslessly from any stamp the history still holds; an older one
   * gets a `reset`. About 40 bytes an event, besides its key. @default 10_000
   */
  readonly size?: number
}

export const DEFAULT_HISTORY_SIZE = 10_000

/** What a change was, as the history keeps it. */
export type HistoryOp = 'insert' | 'update' | 'delete'
const OPS: readonly HistoryOp[] = ['insert', 'update', 'delete']
const OP_CODE = { insert: 0, update: 1, delete: 2 } as const

/** Told after each commit the history saw: whether it started a new epoch. */
export type HistoryObserver = (reset: boolean) => void

export class ChangeHistory {
  /** Most events held. */
  readonly size: number
  readonly #stamps: Float64Array
  readonly #ops: Uint8Array
  readonly #tables: (Table | undefined)[]
  readonly #keys: (KeyValue | undefined)[]
  // Absolute positions: the oldest event held and the next to write (slot = position % size).
  #start = 0
  #end = 0
  #floor: number
  #last: number
  #epoch = 0
  // Events recorded per table in this epoch (a subscriber's backlog is a difference of these).
  // A counter object per table: a commit bumps it with one lookup, not a get and a set.
  readonly #counts = new Map<Table, { n: number }>()
  // Per table, the latest stamp of each key held; only while tracked.
  #latest: Map<Table, Map<KeyValue, number>> | undefined
  #tracking = 0
  readonly #observers = new Set<HistoryObserver>()

  constructor(globalStamp: number, options: ChangeHistoryOptions = {}) {
    const size = options.size ?? DEFAULT_HISTORY_SIZE
    if (!Number.isSafeInteger(size) || size < 1)
      throw new RangeError(`changeHistory.size: ${String(size)} is not a positive integer`)
    this.size = size
    this.#stamps = new Float64Array(size)
    this.#ops = new Uint8Array(size)
    this.#tables = new Array<Table | undefined>(size)
    this.#keys = new Array<KeyValue | undefined>(size)
    this.#floor = globalStamp
    this.#last = globalStamp
  }

  /** A history of `store`'s commits from now on. */
  static attach(store: Store, options?: ChangeHistoryOptions): ChangeHistory {
    const history = new ChangeHistory(store.globalStamp, options)
    // A load's rows are not wanted: a load starts a new epoch, whatever it holds.
    store.onCommit(history.record, { loadRows: false })
    return history
  }

  /** Changes a new epoch: what a subscriber compares with the one it read. */
  get epoch(): number {
    return this.#epoch
  }
  /** The stamp at or below which the history is not complete (see the module note). */
  get floor(): number {
    return this.#floor
  }
  /** The global stamp after the last commit seen. */
  get last(): number {
    return this.#last
  }
  /** Position of the oldest event held. */
  get start(): number {
    return this.#start
  }
  /** Position after the newest event held. */
  get end(): number {
    return this.#end
  }

  stampAt(position: number): number {
    return this.#stamps[position % this.size]!
  }
  opAt(position: number): HistoryOp {
    return OPS[this.#ops[position % this.size]!]!
  }
  tableAt(position: number): Table {
    return this.#tables[position % this.size]!
  }
  keyAt(position: number): KeyValue {
    return this.#keys[position % this.size]!
  }

  /** Events of `table` recorded in this epoch. */
  count(table: Table): number {
    return this.#counts.get(table)?.n ?? 0
  }

  /**
   * The position of the first event after `stamp`, or undefined when the history cannot say
   * (`stamp` is under its floor, or above the last stamp given: another datastore's, or one a
   * restore took back).
   */
  positionAfter(stamp: number): number | undefined {
    if (stamp < this.#floor || stamp > this.#last) return undefined
    let lo = this.#start
    let hi = this.#end
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.stampAt(mid) <= stamp) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /**
   * Keeps the latest stamp of each key until the returned function is called (calls nest): a feed
   * turns it on while it has subscribers. The keys already held are indexed at once.
   */
  track(): () => void {
    if (this.#tracking++ === 0) {
      this.#latest = new Map()
      for (let p = this.#start; p < this.#end; p++) this.#noteLatest(p)
    }
    let done = false
    return () => {
      if (done) return
      done = true
      if (--this.#tracking === 0) this.#latest = undefined
    }
  }

  /** The stamp of the latest event of `key` in `table` the history holds (tracked only). */
  latestStamp(table: Table, key: KeyValue): number | undefined {
    return this.#latest?.get(table)?.get(key)
  }

  /** Calls `observer` after each commit; returns the function that stops it. */
  observe(observer: HistoryObserver): () => void {
    this.#observers.add(observer)
    return () => this.#observers.delete(observer)
  }

  /** The commit listener (registered by `attach`). */
  readonly record = (changes: readonly Change[], info: CommitInfo): void => {
    const reset =
      info.kind === 'load' ||
      info.kind === 'restore' ||
      info.firstStamp < this.#last ||
      // Stamps skipped with changes: changes the history was not told of. A jump with none is a
      // `setGlobalStamp` forward, which gave no stamp to anything.
      (changes.length > 0 && info.firstStamp > this.#last)
    if (reset) this.#reset(info.globalStamp)
    else {
      if (info.stamps !== undefined)
        for (let i = 0; i < changes.length; i++) this.#addChange(changes[i]!, info.stamps[i]!)
      else if (changes.length > 0) this.#push(changes, info.firstStamp)
      this.#last = info.globalStamp
    }
    for (const observer of this.#observers) observer(reset)
  }

  // Deletes first, then the others in order: `changeStamps` (change-stamps.ts), written out here
  // so that a commit allocates nothing.
  #push(changes: readonly Change[], first: number): void {
    let deletes = 0
    for (let i = 0; i < changes.length; i++) if (changes[i]!.op === 'delete') deletes++
    let stamp = first
    if (deletes > 0)
      for (let i = 0; i < changes.length; i++) {
        const c = changes[i]!
        if (c.op === 'delete') this.#add(++stamp, OP_CODE.delete, c.table, c.before.key)
      }
    for (let i = 0; i < changes.length; i++) {
      const c = changes[i]!
      if (c.op === 'insert') this.#add(++stamp, OP_CODE.insert, c.table, c.record.key)
      else if (c.op === 'update') this.#add(++stamp, OP_CODE.update, c.table, c.after.key)
    }
  }

  // One change under the stamp a replay of several records gave it (CommitInfo.stamps).
  #addChange(c: Change, stamp: number): void {
    if (c.op === 'delete') this.#add(stamp, OP_CODE.delete, c.table, c.before.key)
    else if (c.op === 'insert') this.#add(stamp, OP_CODE.insert, c.table, c.record.key)
    else this.#add(stamp, OP_CODE.update, c.table, c.after.key)
  }

  #add(stamp: number, op: number, table: Table, key: KeyValue): void {
    const size = this.size
    if (this.#end - this.#start === size) {
      const old = this.#start % size
      this.#floor = this.#stamps[old]!
      const byKey = this.#latest?.get(this.#tables[old]!)
      if (byKey !== undefined && byKey.get(this.#keys[old]!) === this.#floor)
        byKey.delete(this.#keys[old]!)
      this.#start++
    }
    const slot = this.#end % size
    this.#stamps[slot] = stamp
    this.#ops[slot] = op
    this.#tables[slot] = table
    this.#keys[slot] = key
    const count = this.#counts.get(table)
    if (count !== undefined) count.n++
    else this.#counts.set(table, { n: 1 })
    if (this.#latest !== undefined) this.#noteLatest(this.#end)
    this.#end++
  }

  #noteLatest(position: number): void {
    const latest = this.#latest!
    const table = this.tableAt(position)
    let byKey = latest.get(table)
    if (byKey === undefined) latest.set(table, (byKey = new Map()))
    byKey.set(this.keyAt(position), this.stampAt(position))
  }

  #reset(globalStamp: number): void {
    this.#epoch++
    this.#start = this.#end
    // The keys go now, not when their slots are written again.
    this.#tables.fill(undefined)
    this.#keys.fill(undefined)
    this.#counts.clear()
    this.#latest?.clear()
    this.#floor = globalStamp
    this.#last = globalStamp
  }
}
