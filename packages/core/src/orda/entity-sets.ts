/**
 * @module Entity sets as the public objects see them: selections kept in the datastore's cache
 * (sets/entity-set-store.ts) under an id, found again by it, combined, released. Sets belong to the
 * datastore, not to a session: any client holding the id may use it, as on the real server, whose
 * `$info` lists every set of the server.
 */
import { fail } from '../errors/datastore-error.js'
import {
  EntitySetStore,
  type EntitySetObserver,
  type EntitySetStoreOptions,
  type KeepOptions,
  type SetInfo,
  type StoredSet,
} from '../sets/entity-set-store.js'
import * as algebra from '../sets/set-algebra.js'
import type { Datastore } from './datastore.js'
import type { DataClass } from './data-class.js'
import { EntitySelection } from './entity-selection.js'

export type { EntitySetObserver, EntitySetStoreOptions, KeepOptions, SetInfo, StoredSet }
export type { LogicOperator } from '../sets/set-algebra.js'

/** A kept set: its id, its dataclass, and its members as a selection (deleted ones read as null). */
export class EntitySet {
  readonly id: string
  readonly dataClass: DataClass
  /** The members, in the set's order; an entity deleted since reads as null and still counts. */
  readonly selection: EntitySelection
  /** Lifetime in seconds, restarted by every access. */
  readonly timeout: number
  readonly sorted: boolean
  readonly savedFilter: string | undefined
  readonly savedOrderBy: string | undefined

  /** @internal */
  constructor(dataClass: DataClass, stored: StoredSet) {
    this.id = stored.id
    this.dataClass = dataClass
    this.selection = dataClass.selection(stored.rowIds)
    this.timeout = stored.timeout / 1000
    this.sorted = stored.sorted
    this.savedFilter = stored.savedFilter
    this.savedOrderBy = stored.savedOrderBy
  }
}

export class EntitySets {
  readonly #ds: Datastore
  readonly #store: EntitySetStore

  /** @internal Made by the Datastore. */
  constructor(ds: Datastore, newId: () => string, options?: EntitySetStoreOptions) {
    this.#ds = ds
    this.#store = new EntitySetStore(ds.clock, newId, options)
  }

  /** Number of sets kept. */
  get size(): number {
    return this.#store.size
  }

  /** The most members all sets may hold together. */
  get maxMembers(): number {
    return this.#store.maxMembers
  }

  /** Members kept in all sets together (what the memory bound counts). */
  get members(): number {
    return this.#store.members
  }

  /**
   * Keeps `selection` as a set (in its order); returns it with its new id. The selection's members
   * are fixed now: entities created later are not in it, deleted ones stay as undefined members.
   *
   * @throws DatastoreError EntitySetQuota (9060) past a limit when the store refuses rather than evicts.
   */
  keep(selection: EntitySelection, options: KeepOptions = {}): EntitySet {
    const stored = this.#store.keep(selection.dataClass.name, selection.rowIds, options)
    return new EntitySet(selection.dataClass, stored)
  }

  /** The set `id`, its lifetime restarted; undefined if it expired, was released or never was. */
  get(id: string): EntitySet | undefined {
    const stored = this.#store.get(id)
    return stored && new EntitySet(this.#ds.dataClass(stored.dataClass), stored)
  }

  /** Whether the set `id` is kept, without restarting its lifetime. */
  has(id: string): boolean {
    return this.#store.peek(id) !== undefined
  }

  /** Like `get`, but throws EntitySetNotFound (1802). */
  getOrFail(id: string): EntitySet {
    return this.get(id) ?? fail('EntitySetNotFound', [id])
  }

  /** Forgets the set `id`; false if there was none. */
  release(id: string): boolean {
    return this.#store.release(id)
  }

  /**
   * Tells `observer` of every set kept, read and released (a mirror shared with other processes
   * follows them); returns the function that stops. The sets it is given hold row ids.
   */
  observe(observer: EntitySetObserver): () => void {
    return this.#store.observe(observer)
  }

  /** Forgets every set; `ds.restore` does, since a set's row ids may name other entities after it. */
  clear(): void {
    this.#store.clear()
  }

  /** Every set kept, as `$info` shows them (most recently used first; no lifetime touched). */
  info(): SetInfo[] {
    return this.#store.list()
  }
}

function sameDataClass(a: EntitySelection, b: EntitySelection): void {
  if (a.dataClass !== b.dataClass) {
    fail('EntitySetOfOtherDataClass', ['(other)', b.dataClass.name, a.dataClass.name])
  }
}

/**
 * `a AND b`, `a OR b`, `a EXCEPT b` as a new selection in `a`'s order (then `b`'s, for OR). Both
 * must be of one dataclass (EntitySetOfOtherDataClass, 1803, otherwise).
 */
export function combine(
  a: EntitySelection,
  operator: 'AND' | 'OR' | 'EXCEPT',
  b: EntitySelection,
): EntitySelection {
  sameDataClass(a, b)
  const rows =
    operator === 'AND'
      ? algebra.and(a.rowIds, b.rowIds)
      : operator === 'OR'
        ? algebra.or(a.rowIds, b.rowIds)
        : algebra.except(a.rowIds, b.rowIds)
  return new EntitySelection(a.dataClass, rows)
}

/** Whether `a` and `b` have an entity in common (4D's INTERSECT). */
export function intersects(a: EntitySelection, b: EntitySelection): boolean {
  sameDataClass(a, b)
  return algebra.intersects(a.rowIds, b.rowIds)
}

/** `selection` without the members deleted since it was made (4D's `$clean`), in its order. */
export function clean(selection: EntitySelection): EntitySelection {
  const table = selection.dataClass.table
  const rows = selection.rowIds
  const live = rows.filter((r) => table.has(r))
  return live.length === rows.length ? selection : new EntitySelection(selection.dataClass, live)
}
