/**
 * @module What `ds.changes(options)` takes (the live feed, feed/change-feed.ts): with the Datastore,
 * since its `render` takes the Entity; the feed below reads it as FeedOptions
 * (feed/feed-objects.ts), which names none of the public classes.
 */
import type { Authorize } from '../../access/authorize.js'
import type { Session } from '../../sessions/session-api.js'
import type { ChangedEntity } from '../feed/change-feed.js'
import type { Entity } from './entity.js'

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
