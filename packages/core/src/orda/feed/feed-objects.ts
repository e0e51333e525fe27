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

/**
 * What the feed reads of `ds.changes(options)` (ChangesOptions, documented there). `render` is a
 * method here, so that the public option, which takes the Entity, is one: the feed hands it what
 * `entityAt` gives, which is that Entity.
 */
export interface FeedOptions<T> {
  readonly dataClasses: readonly string[] | string
  readonly filter?: string
  readonly parameters?: readonly unknown[]
  readonly attributes?: readonly string[]
  readonly since?: number
  readonly session?: Session
  readonly authorize?: Authorize
  readonly bufferLimit?: number
  readonly heartbeatMs?: number
  readonly exposedOnly?: boolean
  render?(entity: FeedEntity): T
}
