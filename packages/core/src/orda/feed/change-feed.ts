/**
 * @module The live feed of a datastore's changes: `ds.changes(options)`, an async iterator of the
 * changes of some dataclasses after a global stamp, as seen by a session (docs/change-tracking.md,
 * "Live feed").
 *
 * Every subscriber reads one shared history (store/change-history.ts) with a cursor of its own: a
 * commit copies nothing per subscriber, an idle subscriber holds no event. Each event is decided
 * when it is sent (change-check.ts): the session's privileges and `restrict` at that time, the
 * entity as it is then, and the event skipped when a later one of the same entity will carry it
 * (coalescing: nothing missed, nothing twice). The feed's bookkeeping across subscribers (commits,
 * heartbeats, slow subscribers) is the hub's (change-hub.ts); one subscriber is a ChangeSubscription
 * (change-subscription.ts).
 */
import type { Authorize } from '../../access/authorize.js'
import { fail } from '../../errors/datastore-error.js'
import { dataClassNames } from '../../schema/definitions.js'
import type { Session } from '../../sessions/session-api.js'
import type { ChangeHistoryOptions } from '../../store/change-history.js'
import type { KeyValue } from '../../store/entity-record.js'
import type { DataClass } from '../objects/data-class.js'
import type { Datastore } from '../objects/datastore.js'
import type { Entity } from '../objects/entity.js'

/** Runs `fn` after `ms` milliseconds; returns the function that cancels it. */
export type FeedSchedule = (fn: () => void, ms: number) => () => void

/** `DatastoreOptions.changeHistory`: the history kept for the live feed, and its timer. */
export interface ChangeFeedOptions extends ChangeHistoryOptions {
  /**
   * Runs the feed's one heartbeat timer (its delays are read on the datastore's clock): tests
   * pass one they fire by hand. @default setTimeout, unref'd (it keeps no process alive)
   */
  readonly schedule?: FeedSchedule
  /**
   * Feeds one session may follow at once; one more is refused (429, 9063) until one closes. A
   * page follows a few; each feed is decided at each commit, so a client must not open thousands.
   * @default 16
   */
  readonly maxSubscriptionsPerSession?: number
  /** Feeds the sessions of one user (by name, ignoring case) may follow at once. @default 256 */
  readonly maxSubscriptionsPerUser?: number
  /**
   * Feeds the sessions without a user (guests) may follow at once, all together: a flood of guests
   * never takes the feeds of the logged-in users. @default 1,000
   */
  readonly maxGuestSubscriptions?: number
  /** Feeds all sessions may follow at once (and code that follows one without a session). @default 10,000 */
  readonly maxSubscriptions?: number
}

/** An entity as the default shape sends it: the attributes asked for that the session may read. */
export type ChangedEntity = Record<string, unknown>

/** What `ds.changes(options)` takes. `T`: what an event's `entity` is (see `render`). */
export interface ChangesOptions<T = ChangedEntity> {
  /** The dataclasses to follow: a name or a list of names. */
  readonly dataClasses: readonly string[] | string
  /**
   * Only entities matching this query (one dataclass only): one that stops matching is sent as
   * `deleted` with `left: true`. Checked when each event is sent, against the entity as it is then.
   */
  readonly filter?: string
  /** Values of the filter's `:1`, `:2`… */
  readonly parameters?: readonly unknown[]
  /**
   * The attributes of an event's entity (one dataclass only): names of storage, calculated, alias
   * or relatedEntity attributes (a relation as its key). @default every attribute but relations
   */
  readonly attributes?: readonly string[]
  /**
   * Resume after this global stamp: the changes after it are sent first, from the history. A
   * stamp the history no longer reaches (or never gave) starts with a `reset` instead.
   * @default the current global stamp: only changes from now on
   */
  readonly since?: number
  /** The session whose privileges and `restrict` decide each event. @default none: full rights */
  readonly session?: Session
  /** The embedder's hook, asked besides the roles file (as `ds.actAs`'s). */
  readonly authorize?: Authorize
  /**
   * Events a subscriber may fall behind by (events of its dataclasses not read yet); past it, it
   * is dropped: its next event is `dropped` with the stamp to resume from, then it ends.
   * @default 1000
   */
  readonly bufferLimit?: number
  /** A `heartbeat` event after this many milliseconds (datastore's clock) with nothing sent. */
  readonly heartbeatMs?: number
  /** Only exposed, public attributes may be named (what the REST interface allows). @default false */
  readonly exposedOnly?: boolean
  /**
   * How an event's entity is written, instead of the default plain object (the REST interface
   * writes it as its replies do). Runs as the session, when the event is sent.
   */
  readonly render?: (entity: Entity) => T
}

/** An event of a live feed. `stamp` is the global stamp to resume after (`since`). */
export type ChangeEvent<T = ChangedEntity> =
  | {
      readonly type: 'created' | 'updated'
      readonly stamp: number
      readonly dataClass: string
      readonly key: KeyValue
      /** The entity as it is when the event is sent, shaped by `attributes` (or `render`). */
      readonly entity: T
    }
  | {
      readonly type: 'deleted'
      readonly stamp: number
      readonly dataClass: string
      readonly key: KeyValue
      /** The entity still exists but left the subscription (its filter, or `restrict`). */
      readonly left?: true
    }
  /** The history cannot resume from where the subscriber was: pull the data again, then go on. */
  | { readonly type: 'reset'; readonly stamp: number }
  /** Nothing to send for `heartbeatMs`: the subscriber is up to date at `stamp`. */
  | { readonly type: 'heartbeat'; readonly stamp: number }
  /** The subscriber fell `bufferLimit` events behind and is closed: resume after `stamp`. */
  | { readonly type: 'dropped'; readonly stamp: number }

/** A subscription: `for await (const event of ds.changes(…))`, or `next()` by hand. */
export interface ChangeSubscription<T = ChangedEntity> extends AsyncIterableIterator<
  ChangeEvent<T>
> {
  /** Ends it: a pending `next()` resolves as done; nothing more is held. */
  close(): void
  readonly closed: boolean
  /** The stamp this subscriber is at: every change up to it was sent or did not concern it. */
  readonly position: number
}

export const DEFAULT_BUFFER_LIMIT = 1000

/** The options checked, with the dataclasses found. */
export interface FeedPlan<T> {
  readonly classes: readonly DataClass[]
  readonly options: ChangesOptions<T>
  readonly bufferLimit: number
}

/**
 * Checks `options` against `ds`: DataClassNotFound (1800) for an unknown dataclass,
 * InvalidParameter (1806) for a filter or attributes with several dataclasses, a bad limit or
 * stamp. The filter and attributes themselves are checked by the subscription.
 */
export function feedPlan<T>(ds: Datastore, options: ChangesOptions<T>): FeedPlan<T> {
  const names =
    typeof options.dataClasses === 'string' ? [options.dataClasses] : options.dataClasses
  if (names.length === 0) fail('InvalidParameter', ['dataClasses', '[]', 'one dataclass or more'])
  const classes = [...new Set(names)].map((name) => {
    const dc = ds.findDataClass(name)
    if (dc === undefined || (options.exposedOnly && !dc.def.exposed))
      return fail('DataClassNotFound', [
        name,
        dataClassNames(ds.schema, options.exposedOnly ?? false),
      ])
    return dc
  })
  if (classes.length > 1 && (options.filter !== undefined || options.attributes !== undefined))
    fail('InvalidParameter', [
      options.filter !== undefined ? 'filter' : 'attributes',
      names.join(','),
      'a single dataclass (subscribe to each with its own)',
    ])
  const bufferLimit = options.bufferLimit ?? DEFAULT_BUFFER_LIMIT
  if (!(bufferLimit >= 1))
    fail('InvalidParameter', ['bufferLimit', String(bufferLimit), 'a positive number'])
  const since = options.since
  if (since !== undefined && !(Number.isSafeInteger(since) && since >= 0))
    fail('InvalidParameter', ['since', String(since), 'a global stamp (an integer ≥ 0)'])
  const heartbeat = options.heartbeatMs
  if (heartbeat !== undefined && !(heartbeat > 0))
    fail('InvalidParameter', ['heartbeatMs', String(heartbeat), 'a positive number'])
  return { classes, options, bufferLimit }
}
