/**
 * @module A transaction: writes staged against the committed data, then applied at once by the
 * store's one `commit`, or dropped. Nothing touches a table before `commit()`, so a transaction that
 * fails half-way has nothing to undo: rows, indexes, columns, unique claims, stamps, the global
 * stamp and autosequence counters are exactly as they were (`Store.commit` cannot fail).
 *
 * Each updated entity is staged one at a time: its next values are a frozen copy of the version
 * before with the assignments written, and the patches say which attributes changed, for commit
 * listeners, as immer's `produceWithPatches` gave them (next-values.ts, which a property test holds
 * to immer's answers; a draft per update was 40% of its time). A whole-table draft would copy the
 * table on the first write (tooling research §5: 45 ms per batch at 100k rows).
 *
 * A transaction reads its own writes (`read`): an entity updated twice is checked against its
 * staged version, a new entity can be referenced by the next one. Everyone else sees the committed
 * data until `commit()`.
 *
 * A computed attribute with a `set` function is written through it: the value (converted to the
 * attribute's type) goes to the function, whose assignments are written instead and checked like
 * any others, before anything is staged. A value the write names explicitly wins over the one a
 * `set` function gives for the same attribute.
 *
 * Whoever writes may write only what they may (`permit`, the acting view's check): a create or
 * an update asks it about the values it is given, before anything else, and about what each `set`
 * function assigns instead of its attribute. So what a write finally stores has been asked,
 * whichever path wrote it (REST, ORDA, an event, a setter).
 */
import type { Patch } from 'immer'
import { fail } from '../errors/datastore-error.js'
import { heldFor, type LockOwner, type LockTable } from '../locks/lock-table.js'
import type { DataClassDef } from '../schema/definitions.js'
import { BatchState, newRecord, type Change, type Locate } from '../store/changes.js'
import type { EntityRecord, KeyValue } from '../store/entity-record.js'
import type { Store } from '../store/store.js'
import type { Table } from '../store/table.js'
import { type StoredValue, describeValue } from '../values/coerce.js'
import { nextValues } from './next-values.js'
import { copyStaged, recheck, type RecheckView, type Savepoint } from './savepoints.js'
import type { Staged } from './staged.js'
import { locator, type Assignments, type WritePermit } from './write-values.js'
import { stagedTable } from './staged-table.js'
import { NONE, uniqueChanged, UniqueClaims } from './unique-claims.js'
import { assignmentsOf, type AssignContext } from './assignments.js'
// Still exported from here for orda/ and entistore/src/, which other helpers are restructuring
// now: their imports move to assignments.js once that lands.
export type { Assignments, WritePermit } from './write-values.js'

export interface WriteCheck {
  /**
   * The stamp the writer read. Given, the write is refused with StampChanged (1263) unless the
   * entity still has it; absent, the write applies to whatever version is current.
   */
  readonly stamp?: number | undefined
  /**
   * Who writes, for pessimistic locks: the write is refused with EntityLocked (9070) when another
   * owner holds the entity's lock. Absent, the transaction's own owner writes.
   */
  readonly owner?: LockOwner | undefined
}

export interface TransactionOptions {
  /** The locks writes are checked against. Absent, no entity is ever locked. */
  readonly locks?: LockTable
  /** Who writes when a `WriteCheck` names no owner. */
  readonly owner?: LockOwner
  /**
   * Whether the writer may see row `rowId` of `table` (a `restrict` event): a reference to a
   * committed entity it may not see is refused as one to an entity that does not exist. Absent,
   * every entity is seen.
   */
  readonly visible?: (table: Table, rowId: number) => boolean
  /** Asked about every value a create or an update would store. Absent, everything may be written. */
  readonly permit?: WritePermit
  /**
   * Given, the transaction may stay open while other writes commit (4D's `startTransaction`, open
   * across awaits), and this is its id. It then takes the row ids and sequence values of the
   * entities it creates from their tables at once, so that no other write takes them; locks each
   * entity it updates or deletes under this id until it ends (its owner's other calls are refused
   * too, as 4D's other processes are); and `commit()` checks its writes against the data again if
   * anything was committed since it began (savepoints.ts). Absent, nothing can commit while it is
   * open (a synchronous transaction), and none of that is needed.
   */
  readonly id?: string
}

/** A change as a transaction commits it: the immer patches of an update come along. */
export type CommittedChange = Change & { readonly patches?: readonly Patch[] }

export class Transaction {
  readonly #store: Store
  readonly #batch: BatchState
  #staged = new Map<Table, Map<KeyValue, Staged>>()
  // The same entries by row id (what a selection's members are read by), and each table as this
  // transaction sees it, made when a read asks (staged-table.ts) and forgotten at its next write.
  #byRow = new Map<Table, Map<number, Staged>>()
  // A view is made again once another process committed (Store.version): it reads the table.
  readonly #views = new Map<Table, { readonly view: Table; readonly version: number }>()
  // Unique values held by staged versions: table → attribute → value key → entity key, and back.
  readonly #claims = new UniqueClaims()
  #state: 'open' | 'committed' | 'cancelled' = 'open'
  readonly #now: number
  readonly #locks: LockTable | undefined
  readonly #owner: LockOwner | undefined
  readonly #visible: TransactionOptions['visible']
  readonly #permit: WritePermit | undefined
  readonly #id: string | undefined
  // The store's version when this transaction began (Store.version).
  readonly #version: number
  // The entities this transaction locked (under its id), by table: released when it ends.
  #held: Map<Table, Set<KeyValue>> | undefined
  // What the check of a write's values reads of this transaction (assignments.ts).
  readonly #assign: AssignContext

  constructor(store: Store, options: TransactionOptions = {}) {
    this.#store = store
    this.#now = store.clock.now()
    this.#locks = options.locks
    this.#owner = options.owner
    this.#visible = options.visible
    this.#permit = options.permit
    this.#assign = {
      permit: options.permit,
      table: (name) => store.table(name),
      checkReference: (dc, target, key, where, label) =>
        this.#checkReference(dc, target, key, where, label),
    }
    this.#id = options.id
    this.#version = store.version
    this.#batch = new BatchState(options.id !== undefined)
  }

  /** Its id, when it may stay open across awaits (TransactionOptions.id). */
  get id(): string | undefined {
    return this.#id
  }

  /** Whether it may stay open while others commit (`id`): its process's work may stop inside it. */
  get acrossAwaits(): boolean {
    return this.#id !== undefined
  }

  /** Whether `commit()` or `cancel()` was called. */
  get closed(): boolean {
    return this.#state !== 'open'
  }

  /** Number of entities this transaction changes so far. */
  get size(): number {
    let n = 0
    for (const staged of this.#staged.values()) n += staged.size
    return n
  }

  /**
   * The version of `key` this transaction has staged: the entity as written, null when it deletes
   * it, undefined when it has not written it.
   */
  staged(table: Table, key: KeyValue): EntityRecord | null | undefined {
    return this.#staged.get(table)?.get(key)?.current
  }

  /**
   * The version of row `rowId` of `table` this transaction has staged: as `staged`, by row id (an
   * entity it created has the row id it took).
   */
  stagedAt(table: Table, rowId: number): EntityRecord | null | undefined {
    return this.#byRow.get(table)?.get(rowId)?.current
  }

  /**
   * `table` as this transaction sees it (staged-table.ts), or undefined when it has staged nothing
   * in it: the committed table is then its view.
   */
  view(table: Table): Table | undefined {
    const staged = this.#staged.get(table)
    if (staged === undefined || staged.size === 0) return undefined
    const version = this.#store.version
    let made = this.#views.get(table)
    if (made === undefined || made.version !== version) {
      made = { view: stagedTable(table, staged, this.countChange(table)), version }
      this.#views.set(table, made)
    }
    return made.view
  }

  /** The version of `key` this transaction sees (its own writes first), or undefined if none. */
  read(table: Table, key: KeyValue): EntityRecord | undefined {
    const staged = this.#staged.get(table)?.get(key)
    if (staged) return staged.current ?? undefined
    return table.recordByKey(key)
  }

  /**
   * How many entities of `table` this transaction adds so far, net: those it created, less the
   * committed ones it deleted (what `dataClass.getCount()` adds inside a transaction).
   */
  countChange(table: Table): number {
    let n = 0
    for (const s of this.#staged.get(table)?.values() ?? []) {
      if (s.base === undefined) n += s.current === null ? 0 : 1
      else if (s.current === null) n--
    }
    return n
  }

  /**
   * Stages a new entity. Unset attributes are null, or generated (autosequence, uuid key). Throws
   * (nothing staged) on an unknown or read-only attribute, a value of the wrong type, a missing
   * not-null value, a taken key or unique value, a reference to an entity that does not exist.
   */
  create(table: Table, values: Assignments): EntityRecord {
    this.#open()
    this.#permit?.(table.def, values, true)
    const where = locator(table.def, undefined)
    const given = new Array<StoredValue | undefined>(table.def.storage.length)
    for (const [attr, v] of assignmentsOf(this.#assign, table, values, where, null)) {
      given[table.positionOf(attr.name)!] = v
    }
    // A create refused here (and caught by the caller inside the transaction) gives back the
    // key, row id and sequence values it claimed: the next create gets them.
    const record = this.#batch.attempt(() => {
      const made = newRecord(
        table,
        { values: given, timestamp: this.#now },
        this.#batch,
        this.#store.newUuid,
        where,
      )
      this.#claims.check(table, made, where, this.#staged.get(table))
      return made
    })
    this.#stage(table, record.key, undefined, record, [])
    return record
  }

  /**
   * Stages new values for the entity `key`: a new version with the stamp + 1. Throws EntityNotFound
   * (1542) if there is none, EntityLocked (9070) if another owner than the writer holds its lock,
   * StampChanged (1263) if `check.stamp` is not its stamp, and as `create` for the values; the
   * primary key cannot change.
   */
  update(table: Table, key: KeyValue, values: Assignments, check: WriteCheck = {}): EntityRecord {
    this.#open()
    // Before the entity is looked up: whether it exists is no answer to one who may not write.
    this.#permit?.(table.def, values, false)
    const before = this.#existing(table, key, check)
    const where = locator(table.def, key)
    const assignments = assignmentsOf(this.#assign, table, values, where, before)
    for (const [attr, v] of assignments) {
      if (attr === table.def.key && v !== key) {
        fail('AttributeReadOnly', [attr.name, table.def.name, 'the primary key cannot change'])
      }
    }
    for (const [attr, v] of assignments) {
      if (attr.notNull && v === null && attr !== table.def.key) {
        fail(
          'InvalidAttributeValue',
          ['null', attr.name, attr.type, table.def.name, 'the attribute does not accept null'],
          { details: { location: where(attr.name), attribute: attr.name } },
        )
      }
    }
    const [next, patches] = nextValues(
      before.values,
      assignments.map(([attr, v]) => [attr.name, v] as const),
      table.copyValues,
    )
    const after = table.newVersion(before.rowId, before.key, before.stamp + 1, this.#now, next)
    // Only the values this update changes are checked and claimed: a unique value the entity kept
    // is still its own (no other entity could take it while this one held it, staged or
    // committed), and a check finds it in the entity's staged version (see UniqueClaims.check).
    const changed = table.hasUnique ? uniqueChanged(table, patches) : NONE
    if (changed.size > 0) this.#claims.check(table, after, where, this.#staged.get(table), changed)
    const staged = this.#staged.get(table)?.get(key)
    this.#stage(table, key, staged ? staged.base : before, after, patches, changed)
    this.#hold(table, key, check)
    return after
  }

  /** Stages the deletion of `key`: throws EntityNotFound (1542), EntityLocked (9070) or StampChanged (1263) as `update`. */
  delete(table: Table, key: KeyValue, check: WriteCheck = {}): EntityRecord {
    this.#open()
    const before = this.#existing(table, key, check)
    const staged = this.#staged.get(table)?.get(key)
    this.#stage(table, key, staged ? staged.base : before, null, [])
    this.#hold(table, key, check)
    return before
  }

  /**
   * Applies every staged change through the store's commit, in one step; returns them. The
   * transaction is then closed. An empty transaction commits nothing and moves no stamp.
   */
  commit(): readonly CommittedChange[] {
    this.#open()
    // Open across awaits, and something was committed since: its writes are checked again
    // (TransactionConflict, nothing applied; the transaction stays open for its caller to cancel).
    if (this.#id !== undefined && this.#store.version !== this.#version) recheck(this.#view())
    this.#state = 'committed'
    const changes: CommittedChange[] = []
    for (const [table, staged] of this.#staged) {
      for (const s of staged.values()) {
        if (s.base === undefined) {
          if (s.current) changes.push({ op: 'insert', table, record: s.current })
        } else if (s.current === null) {
          changes.push({ op: 'delete', table, before: s.base })
        } else {
          changes.push({
            op: 'update',
            table,
            before: s.base,
            after: s.current,
            patches: s.patches,
          })
        }
      }
    }
    if (changes.length > 0) this.#store.commit(changes)
    this.#release()
    return changes
  }

  /** Drops every staged change and releases its locks; the transaction is then closed. */
  cancel(): void {
    this.#state = 'cancelled'
    this.#release()
  }

  /**
   * A savepoint: what is staged now, to go back to with `rollback` (a nested transaction of 4D's
   * cancelled). Costs a copy of the staged entries' list.
   */
  mark(): Savepoint {
    this.#open()
    return copyStaged(this.#staged)
  }

  /**
   * Goes back to `mark`: what was staged since is dropped, the keys its new entities claimed are
   * given back, the unique values held are those of the entries kept. The locks taken since stay
   * until the transaction ends; the row ids and sequence values taken (`id` given) are not given
   * back. `mark` is used up.
   */
  rollback(mark: Savepoint): void {
    this.#open()
    for (const [table, staged] of this.#staged)
      for (const [key, s] of staged)
        if (s.base === undefined && !mark.get(table)?.has(key)) this.#batch.releaseKey(table, key)
    this.#staged = mark as Map<Table, Map<KeyValue, Staged>>
    this.#claims.clear()
    this.#views.clear()
    this.#byRow = new Map()
    for (const [table, staged] of this.#staged)
      for (const s of staged.values()) this.#rowOf(table, s)
    for (const [table, staged] of this.#staged)
      for (const [key, s] of staged) this.#claims.claim(table, key, s.current)
  }

  // What `recheck` (savepoints.ts) reads of this transaction, and how it checks a value again.
  #view(): RecheckView {
    return {
      staged: this.#staged,
      locks: this.#locks,
      owner: this.#owner,
      id: this.#id,
      read: (table, key) => this.read(table, key),
      checkUnique: (table, record, only) =>
        this.#claims.check(
          table,
          record,
          locator(table.def, record.key),
          this.#staged.get(table),
          only,
        ),
      checkReference: (table, target, key, label) =>
        this.#checkReference(
          table.def,
          this.#store.table(target),
          key,
          locator(table.def, key),
          label,
        ),
      uniqueChanged,
    }
  }

  // Locks `key` under this transaction's id, once its write is staged (`id` given).
  #hold(table: Table, key: KeyValue, check: WriteCheck): void {
    const id = this.#id
    const writer = check.owner ?? this.#owner
    if (id === undefined || this.#locks === undefined || writer === undefined) return
    const lock = this.#locks.take(table.def.name, key, writer, id)
    if (lock.transaction !== id) return
    let keys = (this.#held ??= new Map()).get(table)
    if (!keys) this.#held.set(table, (keys = new Set<KeyValue>()))
    keys.add(key)
  }

  #release(): void {
    const held = this.#held
    if (held === undefined || this.#locks === undefined) return
    this.#held = undefined
    for (const [table, keys] of held)
      for (const key of keys) this.#locks.releaseTransaction(table.def.name, key, this.#id!)
  }

  #open(): void {
    if (this.#state !== 'open') {
      throw new Error(`This transaction is ${this.#state}: start a new one`)
    }
  }

  #existing(table: Table, key: KeyValue, check: WriteCheck): EntityRecord {
    const current = this.read(table, key)
    if (!current) return fail('EntityNotFound', [String(key), table.def.name])
    const lock = this.#locks?.holder(table.def.name, key)
    const writer = check.owner ?? this.#owner
    if (lock && !(writer && heldFor(lock, writer, this.#id))) {
      fail(
        'EntityLocked',
        [key, table.def.name, lock.owner.kind === 'session' ? 'another session' : 'a process'],
        { details: { dataClass: table.def.name, key, recordNumber: current.rowId, lock } },
      )
    }
    if (check.stamp !== undefined && check.stamp !== current.stamp) {
      fail('StampChanged', [current.rowId, table.def.name], {
        details: { dataClass: table.def.name, key, stamp: current.stamp, given: check.stamp },
      })
    }
    return current
  }

  #stage(
    table: Table,
    key: KeyValue,
    base: EntityRecord | undefined,
    current: EntityRecord | null,
    patches: Patch[],
    only?: ReadonlySet<string>,
  ): void {
    let staged = this.#staged.get(table)
    if (!staged) this.#staged.set(table, (staged = new Map()))
    const previous = staged.get(key)
    if (previous) {
      previous.current = current
      previous.patches = previous.patches.concat(patches)
    } else {
      const entry: Staged = { base, current, patches }
      staged.set(key, entry)
      this.#rowOf(table, entry)
    }
    this.#views.delete(table)
    this.#claims.claim(table, key, current, only)
  }

  // Notes `entry` under its row id (an entity keeps its row id through its versions).
  #rowOf(table: Table, entry: Staged): void {
    const rowId = (entry.current ?? entry.base)?.rowId
    if (rowId === undefined) return
    let rows = this.#byRow.get(table)
    if (!rows) this.#byRow.set(table, (rows = new Map()))
    rows.set(rowId, entry)
  }

  /**
   * Reads `values` into (attribute, stored value) pairs: relations become their foreign-key slot,
   * references are checked against what this transaction sees. Throws on the first bad one.
   */

  #checkReference(
    dc: DataClassDef,
    target: Table,
    key: KeyValue,
    where: Locate,
    label: string,
  ): void {
    const found = this.read(target, key)
    // An entity this transaction created is its writer's to name, whatever `visible` says.
    if (found && (this.#visible === undefined || this.#createdHere(target, key))) return
    if (found && this.#visible!(target, found.rowId)) return
    fail(
      'InvalidAttributeValue',
      [
        describeValue(key),
        label,
        target.def.name,
        dc.name,
        `there is no ${target.def.name} with the key ${JSON.stringify(key)}`,
      ],
      { details: { location: where(label), attribute: label } },
    )
  }

  #createdHere(table: Table, key: KeyValue): boolean {
    const staged = this.#staged.get(table)?.get(key)
    return staged !== undefined && staged.base === undefined
  }
}
