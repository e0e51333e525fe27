/**
 * @module What the entity-set cache keeps and tells (entity-set-store.ts): a stored set and its
 * access, the options of the cache and of one set kept, why a set leaves, what an observer is told
 * (several processes sharing their sets), and the usage and information it reports.
 */
import type { SetOwner } from './set-owners.js'

/** Bytes a kept set's member costs: a row id in an Int32Array (the member bounds bound bytes). */
export const BYTES_PER_MEMBER = Int32Array.BYTES_PER_ELEMENT

/** One kept set. Its members never change; a new set is made instead. */
export interface StoredSet {
  readonly id: string
  readonly dataClass: string
  /** Row ids, in the set's order: an Int32Array alone in its buffer, 4 bytes a member. */
  readonly rowIds: Int32Array
  /** True when the set was made from an ordered read (`$orderby`): `sorted` in `$info`. */
  readonly sorted: boolean
  /** Lifetime in milliseconds, restarted by every access. */
  readonly timeout: number
  /** `$savedfilter` / `$savedorderby`: what remakes the set once it is gone. */
  readonly savedFilter: string | undefined
  readonly savedOrderBy: string | undefined
  /** Who made it; a session's id here follows the session when a login renews it. */
  readonly owner: SetOwner
  /**
   * The view that made it (access/actor.ts `setView`: its user and privileges), and what its
   * making needed of it (access/access-log.ts), or `unknown` when code made it: another view is
   * asked the same before it reads the set. Undefined view: the process made it, anyone reads it.
   */
  readonly view?: string
  readonly access?: SetAccess
}

/** What a set's making needed of its view: `[action, dataClass, attribute?]` each, or `unknown`. */
export type SetAccess = readonly (readonly [string, string, string?])[] | 'unknown'

export interface EntitySetStoreOptions {
  /** Most sets kept at once, all owners together. @default 10_000 */
  readonly maxSets?: number
  /** Most members (row ids) kept in all sets together. @default 20_000_000 (80 MB: 4 bytes each) */
  readonly maxMembers?: number
  /** Most sets one session keeps at once (at most `maxSets`). @default 1_000 */
  readonly maxSetsPerSession?: number
  /**
   * Most members one session's sets hold together (at most `maxMembers`). @default 10_000_000
   * (half the default global bound: 40 MB)
   */
  readonly maxMembersPerSession?: number
  /** Lifetime of a set made without `$timeout`, in seconds. @default 7200 (4D's two hours) */
  readonly defaultTimeout?: number
  /** Longest lifetime a `$timeout` may ask for, in seconds. @default 86_400 */
  readonly maxTimeout?: number
  /** Past a limit: evict the least recently used sets, or refuse the new one (429). @default 'evict' */
  readonly whenFull?: 'evict' | 'refuse'
  /**
   * The secret that signs set ids to their owners (32 hex digits): what lets only its owner remake
   * a set once it is gone. Processes serving one datastore share it. @default random
   */
  readonly idKey?: string
}

export interface KeepOptions {
  /** Lifetime in seconds (capped at `maxTimeout`). */
  readonly timeout?: number
  readonly sorted?: boolean
  readonly savedFilter?: string
  readonly savedOrderBy?: string
  /** Reuse this id (a set remade from its saved filter keeps its id). */
  readonly id?: string
  /** Who keeps it. @default the process */
  readonly owner?: SetOwner
  /**
   * Milliseconds of life the set has left now, when less than its whole lifetime (a set made by
   * another process, last read there some time ago). @default the whole lifetime
   */
  readonly remaining?: number
  /**
   * The view that made it and what that needed (StoredSet); null: the process made it (a set
   * adopted from another process that has none). @default the acting view's
   */
  readonly view?: string | null
  readonly access?: SetAccess
}

/** Why a set was released: `release`, or its session closing (logged out, expired, evicted). */
export type SetReleaseReason = 'released' | 'closed' | 'expired' | 'evicted'

/** What an entity-set store tells of its sets, synchronously, after the change. */
export interface EntitySetObserver {
  kept?(set: StoredSet): void
  /** The set was read (`get`): its lifetime restarted. */
  touched?(set: StoredSet): void
  released?(id: string, reason: SetReleaseReason): void
  /**
   * Its session was renewed (a login): `set.owner.id` is the new id. `remaining`: milliseconds of
   * life the set has left.
   */
  renamed?(set: StoredSet, remaining: number): void
}

/** How much of its quota an owner uses. */
export interface SetUsage {
  readonly sets: number
  readonly members: number
  /** Its bounds: the session quota, or the global bounds for the process. */
  readonly maxSets: number
  readonly maxMembers: number
}

/** A set as `$info` shows it. */
export interface SetInfo {
  readonly id: string
  readonly dataClass: string
  readonly selectionSize: number
  readonly sorted: boolean
  /** Epoch ms of the last access. */
  readonly refreshed: number
  /** Epoch ms when it expires unless accessed. */
  readonly expires: number
}
