/**
 * @module Who may learn that an entity was deleted: the privileges and `restrict` of change
 * tracking's deleted rows (`__DeletedRecords`) and of a live feed's `deleted` events.
 *
 * A session that may not read a dataclass learns of none of its deletions. For a dataclass with a
 * `restrict` event, the question is whether the session could see the entity, and once it is
 * deleted no query can tell. So the answer is taken before the delete applies, for each session
 * that has read the dataclass (only those can hold its entities), **as that session**: its own
 * privileges (never the deleter's, never a promotion), its own `Session` in the restrict. The
 * sessions that could see the entity then, and their users (a later session of the same user,
 * after a login, sees it as well), are the witnesses of that deletion. Nobody else learns of it: a
 * session that never read the dataclass has nothing of it to drop.
 *
 * Witnesses are kept per deletion (its dataclass, key and stamp), not per key: a key deleted,
 * created again hidden from a reader and deleted again is two deletions, and the reader learns of
 * the first alone.
 *
 * The cost inside the commit is one `restrict` answer per distinct view among the readers (the
 * answers are shared as restrict-answers.ts shares them: 99 sessions of one reader are one view),
 * then one bit tested per deleted row and distinct answer. Rows seen by the same witnesses share
 * one set of them.
 *
 * Kept in memory for the process's life, at most `MAX_DELETIONS` deletions (the oldest forgotten
 * first; 12 bytes each: witness-log.ts): a deletion forgotten, or one made before a restart, is
 * shown to no session of a restricted dataclass (privacy first; a client then pulls again).
 */
import { currentActor, runActor } from '../../access/acting.js'
import { Actor } from '../../access/actor.js'
import type { AccessRule } from '../../access/access-rule.js'
import { outsideBudget } from '../../query/budget.js'
import { outsideSlices } from '../../query/slices.js'
import { DELETED_FIELDS } from '../../schema/change-tracking.js'
import type { Session } from '../../sessions/session-api.js'
import { noteSessionRead } from '../../sessions/session-reads.js'
import { sessionUser } from '../../sessions/session-user.js'
import type { RowMembership } from '../../sets/row-bitmap.js'
import type { Change } from '../../store/changes.js'
import type { FeedClass, FeedDatastore } from './feed-objects.js'
import { restriction } from '../restrict/restrict.js'
import type { RestrictedSelection } from '../restrict/restricted-class.js'
import { WitnessLog } from './witness-log.js'

/** Deletions whose witnesses are kept at most (12 bytes each, their sets of witnesses shared). */
export const MAX_DELETIONS = 1_000_000

// A user's mark among witnesses (session ids are hex: they never start so).
const userMark = (name: string): string => `user:${name.toLowerCase()}`

export class DeletionWitnesses {
  readonly #ds: FeedDatastore
  // Per restricted dataclass, the sessions that read it, with the rule they were checked by.
  readonly #readers = new Map<string, Map<string, AccessRule | undefined>>()
  // Per deletion stamp, its witnesses (witness-log.ts).
  readonly #deletions = new WitnessLog(MAX_DELETIONS)

  constructor(ds: FeedDatastore) {
    this.#ds = ds
    ds.sessions.onClose((session) => {
      for (const readers of this.#readers.values()) readers.delete(session.id)
    })
    ds.sessions.onRenew((session, previousId) => {
      for (const readers of this.#readers.values()) {
        if (!readers.has(previousId)) continue
        const rule = readers.get(previousId)
        readers.delete(previousId)
        readers.set(session.id, rule)
      }
    })
  }

  /**
   * Notes that `session` reads `dc`, a dataclass with a restrict (restrict.ts), checked by `rule`
   * (the request's: its roles file and hooks).
   */
  noteReader(dc: { readonly name: string }, session: Session, rule: AccessRule | undefined): void {
    let readers = this.#readers.get(dc.name)
    if (!readers) this.#readers.set(dc.name, (readers = new Map()))
    if (readers.has(session.id) && readers.get(session.id) === rule) return
    readers.set(session.id, rule)
    // Its witnesses are kept for it, so is it (a guest on probation: see SessionStoreApi.visit).
    this.#ds.sessions.hold?.(session.id)
  }

  /**
   * Before a write applies (the rows it deletes still there; `stamps[i]` the stamp of
   * `changes[i]`), a local one or another process's replayed here: the witnesses of each entity
   * it deletes from a restricted dataclass, among this process's readers. Never throws: a reader
   * whose restrict fails witnesses nothing.
   */
  beforeCommit(changes: readonly Change[], stamps: readonly number[]): void {
    const byClass = new Map<FeedClass, { stamp: number; rowId: number }[]>()
    for (let i = 0; i < changes.length; i++) {
      const c = changes[i]!
      if (c.op !== 'delete') continue
      const stamp = stamps[i]!
      const dc = this.#ds.findDataClass(c.table.def.name)
      if (dc?.restrictFunction === undefined) continue
      if (!this.#readers.get(dc.name)?.size) continue
      let rows = byClass.get(dc)
      if (!rows) byClass.set(dc, (rows = []))
      rows.push({ stamp, rowId: c.before.rowId })
    }
    for (const [dc, rows] of byClass) this.#witness(dc, rows)
  }

  #witness(dc: FeedClass, rows: readonly { stamp: number; rowId: number }[]): void {
    // The readers by the answer they get: sessions of one view share one.
    const byAnswer = new Map<RowMembership | undefined, string[]>()
    for (const [id, rule] of this.#readers.get(dc.name)!) {
      const session = this.#ds.sessions.peek(id)
      if (!session) continue
      const answer = this.#answerOf(dc, session, rule)
      if (answer === null) continue
      let marks = byAnswer.get(answer)
      if (!marks) byAnswer.set(answer, (marks = []))
      marks.push(id)
      const user = sessionUser(session)?.name
      if (user) marks.push(userMark(user))
    }
    // Rows seen by the same answers share one set of witnesses.
    const sets = new Map<string, ReadonlySet<string>>()
    const answers = [...byAnswer]
    for (const { stamp, rowId } of rows) {
      let signature = ''
      for (let i = 0; i < answers.length; i++) {
        const rows = answers[i]![0]
        if (rows === undefined || rows.has(rowId)) signature += `${i},`
      }
      if (signature === '') continue
      let seen = sets.get(signature)
      if (!seen) {
        const marks = new Set<string>()
        for (const i of signature.split(',')) if (i) for (const m of answers[+i]![1]) marks.add(m)
        sets.set(signature, (seen = marks))
      }
      this.#deletions.add(stamp, seen)
    }
  }

  // What `session`'s own view (its privileges, no promotion, its restrict as it) sees of `dc`;
  // null when it may not read it or its restrict fails (it then witnesses nothing). Outside any
  // request's budget and slices: this runs inside a commit, which cannot fail.
  #answerOf(
    dc: FeedClass,
    session: Session,
    rule: AccessRule | undefined,
  ): RowMembership | undefined | null {
    const ds = this.#ds
    const actor = new Actor({ scope: ds, schema: ds.schema, session, rule })
    if (!actor.may('read', dc.name)) return null
    let answer: RowMembership | undefined | null = null
    try {
      outsideBudget(() =>
        outsideSlices(() => {
          answer = runActor(actor, () => restriction(dc))
        }),
      )
    } catch {
      return null
    }
    return answer
  }

  /** Whether `session` may learn of the deletion made at global stamp `stamp`. */
  witnessed(stamp: number, session: Session): boolean {
    const seen = this.#deletions.get(stamp)
    if (seen === undefined) return false
    if (seen.has(session.id)) return true
    const user = sessionUser(session)?.name
    return user !== undefined && seen.has(userMark(user))
  }
}

/** `deletionVisible` (objects/datastore-functions.ts, where it is documented), on what it reads. */
export function deletionSeen(ds: FeedDatastore, dataClass: string, stamp: number): boolean {
  const actor = currentActor(ds)
  if (actor === undefined) return true
  if (!actor.may('read', dataClass)) return false
  const dc = ds.findDataClass(dataClass)
  if (dc === undefined) return false
  return dc.restrictFunction === undefined || ds.deletionWitnesses.witnessed(stamp, actor.session)
}

/**
 * The `restrict` of `__DeletedRecords`, built in: for a session, the rows of deletions it may
 * learn of (deletionVisible); null (no restriction) outside one, or when every tracked dataclass
 * is readable and none has a restrict of its own. `own` is the model's restrict for it, if any.
 */
export function deletedRecordsRestrict(
  own: ((this: FeedClass, context: unknown) => unknown) | undefined,
) {
  return function restrictDeleted(this: FeedClass, context: unknown): unknown {
    const narrowed = own?.call(this, context)
    const ds = this.datastore
    const actor = currentActor(ds)
    if (actor === undefined) return narrowed
    // Who witnessed a deletion is told by session: this answer is the session's alone.
    noteSessionRead()
    const tracked = ds.dataClasses.filter((dc) => dc.def.tracked)
    const open = tracked.every(
      (dc) => dc.restrictFunction === undefined && actor.may('read', dc.name),
    )
    if (open) return narrowed
    const base =
      narrowed != null && (narrowed as RestrictedSelection).dataClass === this
        ? (narrowed as RestrictedSelection)
        : this.all()
    const table = this.table
    const keep: number[] = []
    for (const rowId of base.rowIds) {
      const values = table.record(rowId)?.values
      if (!values) continue
      const name = values[DELETED_FIELDS.tableName]
      const stamp = values[DELETED_FIELDS.stamp]
      if (typeof name !== 'string' || typeof stamp !== 'number') continue
      if (deletionSeen(ds, name, stamp)) keep.push(rowId)
    }
    return this.select(keep)
  }
}
