/**
 * @module What the live feed (change-feed.ts, change-check.ts, change-hub.ts, change-subscription.ts)
 * and the deletion witnesses (deletion-witnesses.ts) need of a datastore, its dataclasses and their
 * entities: named by these members, which Datastore, DataClass and Entity have, and not by their
 * classes, which keep a feed and its witnesses and would otherwise be named back by them. The
 * public options of `ds.changes`, whose `render` takes the Entity, are with the Datastore
 * (objects/changes-options.ts); the feed reads them as `FeedOptions`.
 */
import type { Authorize } from '../../access/authorize.js'
import type { Clock } from '../../clock/clock.js'
import type { AttributeDef, SchemaDef } from '../../schema/definitions.js'
import type { Session } from '../../sessions/session-api.js'
import type { RowIds } from '../../sets/row-ids.js'
import type { StoredValues } from '../../store/entity-record.js'
import type { RestrictedClass, RestrictedDatastore } from '../restrict/restricted-class.js'

/** An entity as the feed sends it: its stored values, and any attribute's value. */
export interface FeedEntity {
  readonly values: StoredValues
  valueOf(attr: AttributeDef): unknown
}

/** A dataclass as the feed reads it: restrict's, with its entities and all its rows. */
export interface FeedClass extends RestrictedClass {
  readonly datastore: FeedDatastore
  entityAt(rowId: number): FeedEntity | null
  all(): { readonly rowIds: RowIds }
}

/** A datastore as the feed reads it: restrict's, with its clock, dataclasses and `actAs`. */
export interface FeedDatastore extends RestrictedDatastore {
  readonly schema: SchemaDef
  readonly clock: Clock
  readonly globalStamp: number
  readonly dataClasses: readonly FeedClass[]
  readonly deletionWitnesses: RestrictedDatastore['deletionWitnesses'] & {
    witnessed(stamp: number, session: Session): boolean
  }
  findDataClass(name: string): FeedClass | undefined
  actAs<T>(session: Session, fn: () => T, options?: { readonly authorize?: Authorize }): T
}

/** The settings of `ds.changes(options)`: all of ChangesOptions but its `render`. */
export interface ChangesSettings {
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
}

/**
 * What the feed reads of `ds.changes(options)` (ChangesOptions). `render` is a method here, so
 * that the public option, which takes the Entity, is one: the feed hands it what `entityAt`
 * gives, which is that Entity.
 */
export interface FeedOptions<T> extends ChangesSettings {
  render?(entity: FeedEntity): T
}
