/**
 * @module Who may learn that an entity was deleted: the privileges and `restrict` of change
 * tracking's deleted rows (`__DeletedRecords`) and of a live feed's `deleted` events.
 *
 * A session that may not read a dataclass learns of none of its deletions. For a dataclass with a
 * `restrict` event, the question is whether the session could see the entity, and once it is
 * deleted no query can tell. So the answer is taken before the delete applies, for each session
 * that has read the dataclass (only those can hold its entities): the sessions that could see
 * the entity then, and their users (a later session of the same user, after a login, sees it as
 * well), are its witnesses. Nobody else learns of the deletion: a session that never read the
 * dataclass has nothing of it to drop.
 *
 * Kept in memory, for the process's life: after a restart, the deleted rows of a restricted
 * dataclass are shown to no session (privacy first; a client then pulls again). The cost is one
 * `restrict` answer per reading session for each commit that deletes from a restricted dataclass.
 */
import { currentActor } from '../access/acting.js'
import { DELETED_FIELDS } from '../schema/change-tracking.js'
import type { Session } from '../sessions/session-api.js'
import { sessionUser } from '../sessions/session-user.js'
import type { Change } from '../store/changes.js'
import type { KeyValue } from '../store/entity-record.js'
import type { DataClass } from './data-class.js'
import type { Datastore } from './datastore.js'
import type { EntitySelection } from './entity-selection.js'
import { restrictionFor } from './restrict.js'

// A user's mark among witnesses (session ids are hex: they never start so).
const userMark = (name: string): string => `user:${name.toLowerCase()}`

export class DeletionWitnesses {
  readonly #ds: Datastore
  // Per restricted dataclass, the ids of the sessions that read it.
  readonly #readers = new Map<string, Set<string>>()
  // Per restricted dataclass, per deleted key, who could see it when it was deleted.
  readonly #witnesses = new Map<string, Map<KeyValue, Set<string>>>()

  constructor(ds: Datastore) {
    this.#ds = ds
    ds.sessions.onClose((session) => {
      for (const readers of this.#readers.values()) readers.delete(session.id)
    })
    ds.sessions.onRenew((session, previousId) => {
      for (const readers of this.#readers.values())
        if (readers.delete(previousId)) readers.add(session.id)
    })
  }

  /** Notes that `session` reads `dc`, a dataclass with a restrict (restrict.ts, on each answer). */
  noteReader(dc: DataClass, session: Session): void {
    let readers = this.#readers.get(dc.name)
    if (!readers) this.#readers.set(dc.name, (readers = new Set()))
    readers.add(session.id)
    // Its witnesses are kept for it, so is it (a guest on probation: see SessionStoreApi.visit).
    this.#ds.sessions.hold?.(session.id)
  }

  /** Before a write applies: the witnesses of each entity it deletes from a restricted dataclass. */
  beforeCommit(changes: readonly Change[]): void {
    for (const c of changes) {
      if (c.op !== 'delete') continue
      const dc = this.#ds.findDataClass(c.table.def.name)
      if (dc?.restrictFunction === undefined) continue
      const readers = this.#readers.get(dc.name)
      if (!readers || readers.size === 0) continue
      let byKey = this.#witnesses.get(dc.name)
      if (!byKey) this.#witnesses.set(dc.name, (byKey = new Map()))
      let seen = byKey.get(c.before.key)
      for (const id of readers) {
        const session = this.#ds.sessions.peek(id)
        if (!session) continue
        const rows = restrictionFor(dc, session)
        if (rows !== undefined && !rows.has(c.before.rowId)) continue
        if (!seen) byKey.set(c.before.key, (seen = new Set()))
        seen.add(id)
        const user = sessionUser(session)?.name
        if (user) seen.add(userMark(user))
      }
    }
  }

  /** Whether `session` may learn of the deletion of `key` from restricted dataclass `dataClass`. */
  witnessed(dataClass: string, key: KeyValue, session: Session): boolean {
    const seen = this.#witnesses.get(dataClass)?.get(key)
    if (!seen) return false
    if (seen.has(session.id)) return true
    const user = sessionUser(session)?.name
    return user !== undefined && seen.has(userMark(user))
  }
}

/**
 * Whether the acting session (none: full rights) may learn that the entity `key` of `dataClass`
 * was deleted: it may read the dataclass, and, if the dataclass has a restrict, it could see the
 * entity when it was deleted.
 */
export function deletionVisible(ds: Datastore, dataClass: string, key: KeyValue): boolean {
  const actor = currentActor(ds)
  if (actor === undefined) return true
  if (!actor.may('read', dataClass)) return false
  const dc = ds.findDataClass(dataClass)
  if (dc === undefined) return false
  return (
    dc.restrictFunction === undefined ||
    ds.deletionWitnesses.witnessed(dataClass, key, actor.session)
  )
}

/**
 * The `restrict` of `__DeletedRecords`, built in: for a session, the rows of deletions it may
 * learn of (deletionVisible); null (no restriction) outside one, or when every tracked dataclass
 * is readable and none has a restrict of its own. `own` is the model's restrict for it, if any.
 */
export function deletedRecordsRestrict(
  own: ((this: DataClass, context: unknown) => unknown) | undefined,
) {
  return function restrictDeleted(this: DataClass, context: unknown): unknown {
    const narrowed = own?.call(this, context)
    const ds = this.datastore as Datastore
    const actor = currentActor(ds)
    if (actor === undefined) return narrowed
    const tracked = ds.dataClasses.filter((dc) => dc.def.tracked)
    const open = tracked.every(
      (dc) => dc.restrictFunction === undefined && actor.may('read', dc.name),
    )
    if (open) return narrowed
    const base =
      narrowed != null && (narrowed as EntitySelection).dataClass === this
        ? (narrowed as EntitySelection)
        : this.all()
    const table = this.table
    const keep: number[] = []
    for (const rowId of base.rowIds) {
      const values = table.record(rowId)?.values
      if (!values) continue
      const name = values[DELETED_FIELDS.tableName]
      const key = values[DELETED_FIELDS.primaryKey]
      if (typeof name !== 'string' || typeof key !== 'string') continue
      const dc = ds.findDataClass(name)
      if (dc === undefined) continue
      if (
        deletionVisible(
          ds,
          name,
          dc.def.key.type === 'string' || dc.def.key.type === 'uuid' ? key : Number(key),
        )
      )
        keep.push(rowId)
    }
    return this.select(keep)
  }
}
