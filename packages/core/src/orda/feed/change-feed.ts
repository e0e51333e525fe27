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
 * (change-subscription.ts). The public options, ChangesOptions, whose `render` takes the Entity,
 * are with the Datastore (objects/changes-options.ts).
 */
import { fail } from '../../errors/datastore-error.js'
import { dataClassNames } from '../../schema/definitions.js'
import type { ChangeHistoryOptions } from '../../store/change-history.js'
import type { KeyValue } from '../../store/entity-record.js'
import type { FeedClass, FeedDatastore, FeedOptions } from './feed-objects.js'

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
  readonly classes: readonly FeedClass[]
  readonly options: FeedOptions<T>
  readonly bufferLimit: number
}

/**
 * Checks `options` against `ds`: DataClassNotFound (1800) for an unknown dataclass,
 * InvalidParameter (1806) for a filter or attributes with several dataclasses, a bad limit or
 * stamp. The filter and attributes themselves are checked by the subscription.
 */
export function feedPlan<T>(ds: FeedDatastore, options: FeedOptions<T>): FeedPlan<T> {
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
