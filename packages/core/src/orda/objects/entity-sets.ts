/**
 * @module Entity sets as the public objects see them: selections kept in the datastore's cache
 * (sets/entity-set-store.ts) under an id, found again by it, combined, released.
 *
 * A set belongs to the session that made it and to its user (sets/set-owners.ts), or to the
 * process for code outside any request. Naming its id grants nothing the caller could not query
 * itself: anyone may read it, and reads it narrowed by their own `restrict` (what `get` gives is
 * the members the acting session may see, so deletes, aggregates, set algebra and functions on it
 * are narrowed too); only a session of the owning user (or the process) releases it, lists it in
 * `info`, or remakes it under its id once it is gone. A session's sets count against its own quota,
 * follow it when a login renews its id, and go with it when it closes (logout, expiry, eviction),
 * as 4D releases a session's sets with the session.
 */
import { once, sliceable } from '../../query/slices.js'
import { fail } from '../../errors/datastore-error.js'
import type { Session } from '../../sessions/session-api.js'
import { sessionUser } from '../../sessions/session-user.js'
import {
  BYTES_PER_MEMBER,
  EntitySetStore,
  type EntitySetObserver,
  type EntitySetStoreOptions,
  type KeepOptions,
  type SetAccess,
  type SetInfo,
  type SetReleaseReason,
  type SetUsage,
  type StoredSet,
} from '../../sets/entity-set-store.js'
import { actorNames, mayManage, PROCESS_OWNER, type SetOwner } from '../../sets/set-owners.js'
import { combineWork, intersectsWork } from '../../query/parallel-sets.js'
import type { Lifetimes } from '../../sets/session-quota.js'
import type { Datastore } from './datastore.js'
import type { RowIds } from '../../sets/row-ids.js'
import type { DataClass } from './data-class.js'
import type { EntitySelection } from './entity-selection.js'
import { restrictedRows } from '../restrict/restrict.js'
import { sessionQuota, type QuotaSource } from '../calls/session-quotas.js'
import { currentOwner } from '../calls/owners.js'
import { currentActor } from '../../access/acting.js'

export type {
  EntitySetObserver,
  EntitySetStoreOptions,
  KeepOptions,
  SetAccess,
  SetInfo,
  SetOwner,
  SetReleaseReason,
  SetUsage,
  StoredSet,
}
export type { LogicOperator } from '../../sets/set-algebra.js'

/** A kept set: its id, its dataclass, and its members as a selection (deleted ones read as null). */
export class EntitySet {
  readonly id: string
  readonly dataClass: DataClass
  /**
   * The members, in the set's order; an entity deleted since reads as null and still counts. From
   * `get`, only those the acting session's `restrict` lets it see (deleted ones then left out).
   */
  readonly selection: EntitySelection
  /** Lifetime in seconds, restarted by every access. */
  readonly timeout: number
  readonly sorted: boolean
  readonly savedFilter: string | undefined
  readonly savedOrderBy: string | undefined
  /** Who made it: a session (its id followed across a login, its user's name) or the process. */
  readonly owner: SetOwner

  /** @internal */
  constructor(
    dataClass: DataClass,
    stored: StoredSet,
    narrowed: 'no' | 'for its owner' | 'for another' = 'no',
  ) {
    this.id = stored.id
    this.dataClass = dataClass
    // Its owner keeps the members it made, deleted ones counted (as in any set); another session
    // gets only live members it may see: whether one of them was deleted is not its to learn.
    this.selection = dataClass.select(
      narrowed === 'no' || dataClass.restrictFunction === undefined
        ? stored.rowIds
        : narrowed === 'for its owner'
          ? restrictedRows(dataClass, stored.rowIds, true)
          : liveRows(dataClass, restrictedRows(dataClass, stored.rowIds)),
    )
    this.timeout = stored.timeout / 1000
    this.sorted = stored.sorted
    this.savedFilter = stored.savedFilter
    this.savedOrderBy = stored.savedOrderBy
    this.owner = stored.owner
  }
}

// `rows` without those deleted since (a restrict that lets everything through keeps them all).
function liveRows(dc: DataClass, rows: RowIds): RowIds {
  const table = dc.table
  for (let i = 0; i < rows.length; i++)
    if (!table.has(rows[i]!)) return Array.from(rows).filter((row) => table.has(row))
  return rows
}

/** The owner of the sets `session` keeps now: it, with the name of the user logged in on it. */
export function setOwnerOf(session: Session): SetOwner {
  const user = sessionUser(session)?.name || undefined
  return user === undefined
    ? { kind: 'session', id: session.id }
    : { kind: 'session', id: session.id, user }
}

/** Who acts, for the methods that take `by`: a set's owner, or the acting session (`actor()`). */
export interface ActingOptions {
  /** @default the acting session (`ds.runAs`, a function call's), else the process */
  readonly by?: SetOwner
}

export class EntitySets implements QuotaSource {
  /**
   * Bytes a member of a kept set costs (its row id in an Int32Array): `maxMembers` × this is the
   * bound on the bytes of members.
   */
  static readonly bytesPerMember: number = BYTES_PER_MEMBER

  readonly #ds: Datastore
  readonly #store: EntitySetStore
  // The ids a session had before logins renewed it (the last few): a set it made as a guest is
  // still its own to remake.
  readonly #previousIds = new WeakMap<Session, string[]>()

  /** @internal Made by the Datastore. */
  constructor(ds: Datastore, newId: () => string, options?: EntitySetStoreOptions) {
    this.#ds = ds
    // A session's own quotas (`currentCall().quotas`) are in its data: read at each set it keeps.
    this.#store = new EntitySetStore(ds.clock, newId, options, (owner) => {
      const session = ds.sessions.peek(owner.id)
      return session && sessionQuota(session)
    })
    ds.sessions.onRenew((session, previous) => {
      this.#store.renameSession(previous, session.id)
      const ids = this.#previousIds.get(session) ?? []
      this.#previousIds.set(session, [previous, ...ids].slice(0, 8))
    })
    ds.sessions.onClose((session, reason) => this.#store.releaseSession(session.id, reason))
  }

  /** Number of sets kept, every owner's. */
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

  /** @internal The default and longest lifetimes of a set, in milliseconds (for `quotas`). */
  get lifetimes(): Lifetimes {
    return this.#store
  }

  /** @internal Sets the session `sessionId` keeps now (its quotas' `currentValues`). */
  setsOf(sessionId: string): number {
    return this.#store.usage({ kind: 'session', id: sessionId }).sets
  }

  /**
   * Who acts now, as a set owner: the session of `ds.runAs` or of the function call running (with
   * the name of the user logged in on it), else the process.
   */
  actor(): SetOwner {
    const owner = currentOwner(this.#ds)
    if (owner.kind !== 'session') return PROCESS_OWNER
    const session = this.#ds.sessions.peek(owner.id)
    return session ? setOwnerOf(session) : { kind: 'session', id: owner.id }
  }

  /**
   * Keeps `selection` as a set (in its order); returns it with its new id. The selection's members
   * are fixed now: entities created later are not in it, deleted ones stay as undefined members.
   * It belongs to `options.owner`, by default the acting session (`actor()`), and counts against
   * that session's quota.
   *
   * @throws DatastoreError EntitySetQuota (9060) past a limit when the store refuses rather than
   * evicts; EntitySetSessionQuota (9061) past the session's own `quotas.nbEntitySets`.
   */
  keep(selection: EntitySelection, options: KeepOptions = {}): EntitySet {
    // A read run again after its work went on in slices keeps the set it kept the first time.
    return once(`keep ${selection.dataClass.name} ${options.id ?? ''}`, () =>
      this.#keep(selection, options),
    )
  }

  #keep(selection: EntitySelection, options: KeepOptions): EntitySet {
    const owner = options.owner ?? this.actor()
    // A guest on probation (a client's first request) that keeps a set is kept with it.
    if (owner.kind === 'session') this.#ds.sessions.hold?.(owner.id)
    // The store keeps an Int32Array of the members (4 bytes each). Every row in key order is the
    // table's own list: its typed form, one for every set of them, not a copy a set.
    const rows = selection.rowIds
    const members = selection.dataClass.table.typedOrder(rows) ?? rows
    // The view that made it, and what that needed (what a request recorded; code: unknown).
    const actor = currentActor(this.#ds)
    const made =
      options.view !== undefined || actor === undefined
        ? {}
        : { view: actor.setView, access: actor.log?.asked ?? ('unknown' as const) }
    // (A view given, or null for none, is the adopted set's own: `...options` carries it.)
    const stored = this.#store.keep(selection.dataClass.name, members, {
      ...options,
      ...made,
      owner,
    })
    return new EntitySet(selection.dataClass, stored)
  }

  /**
   * The set `id`, its lifetime restarted, its members narrowed by the acting session's `restrict`;
   * undefined if it expired, was released or never was. Anyone may read a set: it holds nothing
   * they could not query.
   */
  get(id: string): EntitySet | undefined {
    const stored = this.#store.get(id)
    if (stored === undefined) return undefined
    this.#mayRead(stored)
    const own = mayManage(stored.owner, this.actor())
    return new EntitySet(
      this.#ds.dataClass(stored.dataClass),
      stored,
      own ? 'for its owner' : 'for another',
    )
  }

  // A set made by one view holds what that view computed (an order by salary, the members of a
  // filter on it): another view reads it only if it could have made it, asked each permission the
  // making needed (refused as the making would have been); one that code made, only its view.
  #mayRead(stored: StoredSet): void {
    const actor = currentActor(this.#ds)
    if (actor === undefined || stored.view === undefined) return
    const access = stored.access ?? 'unknown'
    if (access !== 'unknown') return actor.needAsked(access)
    if (actor.setView !== stored.view) fail('EntitySetOfAnotherView', [stored.id])
    // What this request makes of it depends on what code made.
    actor.log?.markUnknown()
  }

  /** Whether the set `id` is kept, without restarting its lifetime. */
  has(id: string): boolean {
    return this.#store.peek(id) !== undefined
  }

  /** Like `get`, but throws EntitySetNotFound (1802). */
  getOrFail(id: string): EntitySet {
    return this.get(id) ?? fail('EntitySetNotFound', [id])
  }

  /**
   * Forgets the set `id` if `by` (the acting session by default) may: a session of its owner's
   * user, its owning session, or the process. False if there was none, or it is not theirs: the
   * same answer, so that nobody learns of another's set by trying.
   */
  release(id: string, options: ActingOptions = {}): boolean {
    const set = this.#store.peek(id)
    if (!set || !mayManage(set.owner, options.by ?? this.actor())) return false
    return this.#store.release(id)
  }

  /**
   * Whether `by` (the acting session by default) may remake the gone set `id` under that id (from
   * its saved filter): the id was given to a set of theirs (to their user, to their session, or
   * to it before a login renewed it). The process may remake any. False for an id nobody was
   * given.
   */
  mayRemake(id: string, options: ActingOptions = {}): boolean {
    const by = options.by ?? this.actor()
    if (by.kind === 'process') return true
    const session = this.#ds.sessions.peek(by.id)
    const previous = (session && this.#previousIds.get(session)) ?? []
    return this.#store.signedFor(id, actorNames(by, previous))
  }

  /**
   * Tells `observer` of every set kept, read, released and renamed (a mirror shared with other
   * processes follows them); returns the function that stops. The sets it is given hold row ids.
   */
  observe(observer: EntitySetObserver): () => void {
    return this.#store.observe(observer)
  }

  /** Forgets every set; `ds.restore` does, since a set's row ids may name other entities after it. */
  clear(): void {
    this.#store.clear()
  }

  /**
   * The sets `by` (the acting session by default) owns, as `$info` shows them (most recently used
   * first; no lifetime touched): those of its user or its session; every set for the process.
   */
  info(options: ActingOptions = {}): SetInfo[] {
    const by = options.by ?? this.actor()
    return by.kind === 'process'
      ? this.#store.list()
      : this.#store.list((set) => mayManage(set.owner, by))
  }

  /**
   * What `by`'s session holds against its quota (sets, members, and the bounds); the whole cache
   * against the global bounds for the process.
   */
  usage(options: ActingOptions = {}): SetUsage {
    const by = options.by ?? this.actor()
    if (by.kind === 'session') return this.#store.usage(by)
    const { maxSets, maxMembers } = this.#store.usage(PROCESS_OWNER)
    return { sets: this.#store.size, members: this.#store.members, maxSets, maxMembers }
  }

  /** @internal Signs ids with `key` (32 hex digits) from now on: processes sharing sets share it. */
  useIdKey(key: string): void {
    this.#store.useIdKey(key)
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
  const [x, y] = [a.rowIds, b.rowIds]
  // In steps where the read runs in slices; members never change, so no refresh is needed.
  // Large lists by the kernels, on worker threads where there is a pool (query/parallel-sets.ts).
  const rows = sliceable(`${operator} ${a.dataClass.name}`, () => combineWork(operator, x, y), same)
  return a.dataClass.select(rows)
}

/** Whether `a` and `b` have an entity in common (4D's INTERSECT). */
export function intersects(a: EntitySelection, b: EntitySelection): boolean {
  sameDataClass(a, b)
  const [x, y] = [a.rowIds, b.rowIds]
  return sliceable(`INTERSECT ${a.dataClass.name}`, () => intersectsWork(x, y), same)
}

// A result of set algebra holds whatever was written since: the members are fixed.
const same = <T>(value: T): T => value

/** `selection` without the members deleted since it was made (4D's `$clean`), in its order. */
export function clean(selection: EntitySelection): EntitySelection {
  const table = selection.dataClass.table
  const rows = selection.rowIds
  const live = rows.filter((r) => table.has(r))
  return live.length === rows.length ? selection : selection.dataClass.select(live)
}
