/**
 * @module What a live feed sends of one change in its history, for one subscriber, decided when it
 * is sent, as the subscriber's session (change-feed.ts):
 *
 * - `created`/`updated` read the entity as it is now. If the history holds a later event of the
 *   same entity, this one is skipped: the later one carries it (and the entity as sent is the one
 *   that later event left). A session that may not read the dataclass gets nothing.
 * - An entity the filter does not match (or `restrict` hides) is sent as `deleted` with
 *   `left: true` when the subscriber may hold it: see `Membership`.
 * - `deleted` only for a deletion the session may learn of (`deletionVisible`: read privilege, and
 *   for a restricted dataclass, whether it could see the entity when it was deleted).
 */
import { currentActor } from '../../access/acting.js'
import { DatastoreError, fail } from '../../errors/datastore-error.js'
import { attributeNames, type AttributeDef } from '../../schema/definitions.js'
import type { KeyValue } from '../../store/entity-record.js'
import type { ChangeHistory } from '../../store/change-history.js'
import type { Table } from '../../store/table.js'
import { RowTest } from '../../query/row-test.js'
import type { ChangedEntity, ChangeEvent } from './change-feed.js'
import type { FeedClass, FeedDatastore, FeedEntity, FeedOptions } from './feed-objects.js'
// The deletion side of change tracking (its own module): who may learn of a deletion.
import { deletionSeen } from './deletion-witnesses.js'
import { kindOf } from '../kinds/object-kind.js'
import { restriction, visible } from '../restrict/restrict.js'

/** Keys a filtered subscriber is known not to hold (a `left` sent), at most this many. */
const NOT_HELD_LIMIT = 10_000

/**
 * Which keys a subscriber may hold, for `left` events. A subscriber is assumed to hold whatever
 * matched when it last pulled (it may resume from a stamp after a pull, or after another
 * connection), so an entity that does not match is sent as `left` unless it is known not to be
 * held: `notHeld`, the keys a `left` was sent for (bounded: a key forgotten costs one more `left`,
 * which a client ignores). An entity `restrict` hides is different: telling its key would say
 * that it exists, so `left` goes only for keys this subscription sent (`held`), and a client that
 * reconnects after one became hidden keeps it until it pulls again (docs/change-tracking.md).
 */
class Membership {
  readonly #notHeld: Set<KeyValue> | undefined
  readonly #held: Set<KeyValue> | undefined

  constructor(filtered: boolean, restricted: boolean) {
    this.#notHeld = filtered ? new Set() : undefined
    this.#held = restricted ? new Set() : undefined
  }

  sent(key: KeyValue): void {
    this.#held?.add(key)
    this.#notHeld?.delete(key)
  }

  /** Whether to send `left` for `key`, which does not match (`hidden`: restrict hides it). */
  leaves(key: KeyValue, hidden: boolean): boolean {
    if (hidden) return this.#held?.delete(key) ?? false
    const notHeld = this.#notHeld
    if (notHeld === undefined || notHeld.has(key)) return false
    if (notHeld.size >= NOT_HELD_LIMIT) notHeld.delete(notHeld.values().next().value!)
    notHeld.add(key)
    this.#held?.delete(key)
    return true
  }

  /** Whether to send the deletion of `key` (one known not held is not sent). */
  deleted(key: KeyValue): boolean {
    this.#held?.delete(key)
    return !(this.#notHeld?.delete(key) ?? false)
  }

  clear(): void {
    this.#held?.clear()
    this.#notHeld?.clear()
  }
}

/** How one dataclass of a subscription is checked and shaped. */
class ClassCheck<T> {
  readonly dc: FeedClass
  readonly #filter: RowTest | undefined
  readonly #attributes: readonly AttributeDef[]
  readonly #options: FeedOptions<T>
  readonly membership: Membership
  // The view the filter's test was made for.
  #view: string | undefined

  constructor(dc: FeedClass, options: FeedOptions<T>, single: boolean) {
    this.dc = dc
    const ds = dc.datastore
    const exposedOnly = options.exposedOnly ?? false
    this.#filter =
      single && options.filter !== undefined && options.filter.trim() !== ''
        ? new RowTest(ds.querySource, dc.def, options.filter, {
            params: options.parameters,
            exposedOnly,
          })
        : undefined
    this.#attributes =
      single && options.attributes !== undefined
        ? options.attributes.map((name) => attributeOf(dc, name, exposedOnly))
        : dc.def.attributes.filter(
            (a) =>
              a.kind !== 'relatedEntities' &&
              a.kind !== 'relatedEntity' &&
              (!exposedOnly || a.exposed),
          )
    this.#options = options
    this.membership = new Membership(this.#filter !== undefined, dc.restrictFunction !== undefined)
  }

  /** What the filter reads, the session may read (refused: throws, as the query would). */
  checkFilter(): void {
    this.#filter?.check()
  }

  /** The event for the change at `position` of `history`, or undefined to send nothing. */
  event(history: ChangeHistory, position: number): ChangeEvent<T> | undefined {
    const dc = this.dc
    const table = history.tableAt(position)
    const key = history.keyAt(position)
    const stamp = history.stampAt(position)
    const dataClass = dc.name
    const ds = dc.datastore
    if (history.opAt(position) === 'delete') {
      if (!deletionSeen(ds, dataClass, stamp)) return undefined
      return this.membership.deleted(key) ? { type: 'deleted', stamp, dataClass, key } : undefined
    }
    const latest = history.latestStamp(table, key)
    if (latest !== undefined && latest > stamp) return undefined
    const rowId = table.rowIdOf(key)
    // Gone: its deletion is a later event (or a reset is on its way).
    if (rowId === undefined) return undefined
    const actor = currentActor(ds)
    if (actor !== undefined && !actor.may('read', dataClass)) return undefined
    const hidden = dc.restrictFunction !== undefined && !visible(dc, rowId)
    const matches = !hidden && this.#matches(rowId, ds)
    if (!matches)
      return this.membership.leaves(key, hidden)
        ? { type: 'deleted', stamp, dataClass, key, left: true }
        : undefined
    const entity = dc.entityAt(rowId)!
    const value = this.#options.render ? this.#options.render(entity) : (this.#plain(entity) as T)
    this.membership.sent(key)
    const type = history.opAt(position) === 'insert' ? 'created' : 'updated'
    return { type, stamp, dataClass, key, entity: value }
  }

  #matches(rowId: number, ds: FeedDatastore): boolean {
    if (this.#filter === undefined) return true
    this.checkFilter()
    // The test holds what the view saw of related dataclasses: made again for another view (the
    // session's privileges changed since), as for another version.
    const view = currentActor(ds)?.view
    if (view !== this.#view) {
      this.#filter.forget()
      this.#view = view
    }
    return this.#filter.matches(rowId, ds.globalStamp)
  }

  // The attributes asked for that the session may read; a relation as its key.
  #plain(entity: FeedEntity): ChangedEntity {
    const actor = currentActor(this.dc.datastore)
    const out: ChangedEntity = {}
    for (const attr of this.#attributes) {
      if (actor !== undefined && !actor.mayRead(this.dc.def, attr)) continue
      let v: unknown
      try {
        v =
          attr.kind === 'relatedEntity'
            ? (entity.values[attr.foreignKey] ?? null)
            : entity.valueOf(attr)
      } catch (error) {
        // A computed attribute whose getter reads what the session may not is left out, as a
        // REST reply leaves it out: the event is still sent.
        if (DatastoreError.is(error) && error.category === 'forbidden') continue
        throw error
      }
      out[attr.name] = isEntity(v) ? v.getKey() : v
    }
    return out
  }
}

// An Entity (or a draft, which is one), told by its kind (kinds/object-kind.ts): the feed names
// no public class, and makes none.
const isEntity = (v: unknown): v is { getKey(): unknown } =>
  kindOf(v) === 'entity' || kindOf(v) === 'draft'

function attributeOf(dc: FeedClass, name: string, exposedOnly: boolean): AttributeDef {
  const attr = dc.def.attributesByName.get(name)
  if (attr === undefined || (exposedOnly && !attr.exposed))
    return fail('AttributeNotFound', [
      name,
      dc.name,
      attributeNames(dc.datastore.schema, dc.def, exposedOnly),
    ])
  if (attr.kind === 'relatedEntities')
    return fail('InvalidParameter', [
      'attributes',
      name,
      'an attribute that is not a to-many relation',
    ])
  return attr
}

/** The checks of one subscription, by table. */
export class FeedChecks<T> {
  readonly #byTable = new Map<Table, ClassCheck<T>>()

  constructor(classes: readonly FeedClass[], options: FeedOptions<T>) {
    for (const dc of classes)
      this.#byTable.set(dc.table, new ClassCheck(dc, options, classes.length === 1))
  }

  get tables(): Iterable<Table> {
    return this.#byTable.keys()
  }

  has(table: Table): boolean {
    return this.#byTable.has(table)
  }

  /** Checks what the subscription asks of the acting session now: read, and the filter's paths. */
  checkNow(): void {
    for (const check of this.#byTable.values()) {
      const actor = currentActor(check.dc.datastore)
      actor?.need('read', check.dc.name)
      check.checkFilter()
      // A subscriber may hold what it is sent: it reads the dataclass, and witnesses what its
      // restrict lets it see be deleted (deletion-witnesses.ts).
      if (check.dc.restrictFunction !== undefined) restriction(check.dc)
    }
  }

  /**
   * The event for `position`, or undefined. A refusal of the session's privileges (they changed
   * since it subscribed) sends nothing for this change, as for any change it may not read.
   */
  event(history: ChangeHistory, position: number): ChangeEvent<T> | undefined {
    const check = this.#byTable.get(history.tableAt(position))
    if (check === undefined) return undefined
    try {
      return check.event(history, position)
    } catch (error) {
      if (DatastoreError.is(error) && error.category === 'forbidden') return undefined
      throw error
    }
  }

  /** A reset: the subscriber pulls again, and holds what it pulled. */
  clear(): void {
    for (const check of this.#byTable.values()) check.membership.clear()
  }
}
