/**
 * @module A dataclass's `restrict` event (4D 20 R5, `Function event restrict` in the DataClass
 * class): the selection a caller may see. It narrows every read of the dataclass the API makes:
 * `all()`, queries, `get()` (null outside it), the entities a relation leads to, and what is made
 * from those (orderings, slices, set algebra, aggregates, entity sets). An update or drop of an
 * entity outside it is refused as if the entity did not exist (1542). New entities are not.
 *
 * The function gets the session the work is done for (the acting one: a REST request's, for its
 * whole reply and the code it runs, or `ds.actAs`'s; one `runAs` names; none for TypeScript called
 * outside a request), and returns an EntitySelection of the dataclass, or
 * null/undefined (or anything else) for no restriction. Its answer is kept until the data or the
 * session changes (the datastore's global stamp, the acting owner). Inside it, the dataclass's
 * own reads are not narrowed (it would call itself).
 *
 * The query engine narrows what a relation leads to as well (query/visibility.ts, implemented by
 * restrict-visibility.ts): a filter, an ordering or a query path's counts through a relation.
 *
 * Not narrowed: entity sets kept from before the restriction changed.
 */
import type { Session } from '../sessions/session-api.js'
import type { RowIds } from '../sets/row-ids.js'
import type { DataClass } from './data-class.js'
import type { EntitySelection } from './entity-selection.js'
import { isSelection } from './object-kinds.js'
import { currentOwner } from './owners.js'
import { currentActor } from '../access/acting.js'

/** What `restrict` receives. */
export interface RestrictContext {
  /** The session of the REST request (or function call) the read is for; undefined for none. */
  readonly session: Session | undefined
}

// The last answer of each dataclass's restrict: for which owner, at which global stamp.
const kept = new WeakMap<
  DataClass,
  { owner: string; stamp: number; rows: ReadonlySet<number> | undefined }
>()
// The dataclasses whose restrict is running: their own reads inside it are not narrowed.
const running = new WeakSet<DataClass>()

/** The row ids `dc`'s restrict lets through, or undefined when nothing is restricted. */
export function restriction(dc: DataClass): ReadonlySet<number> | undefined {
  const fn = dc.restrictFunction
  if (fn === undefined || running.has(dc)) return undefined
  const ds = dc.datastore
  // The session acting (a request's, through its whole reply and the code it runs), else the
  // owner `runAs` names.
  const actor = currentActor(ds)
  const owner = actor ? undefined : currentOwner(ds)
  const key = actor ? `session:${actor.session.id}` : `${owner!.kind}:${owner!.id}`
  const last = kept.get(dc)
  if (last && last.owner === key && last.stamp === ds.globalStamp) return last.rows
  const session =
    actor?.session ?? (owner!.kind === 'session' ? ds.sessions.peek(owner!.id) : undefined)
  // A session that reads a restricted dataclass may hold its entities: the witnesses of its
  // deletions are taken among those (deletion-witnesses.ts).
  if (session) ds.deletionWitnesses.noteReader(dc, session)
  const rows = answer(dc, session)
  kept.set(dc, { owner: key, stamp: ds.globalStamp, rows })
  return rows
}

/**
 * The row ids `dc`'s restrict lets `session` see, asked now (not kept), whoever acts: what a
 * deletion's witnesses are decided by, before the delete applies. Undefined: nothing restricted.
 */
export function restrictionFor(dc: DataClass, session: Session): ReadonlySet<number> | undefined {
  if (dc.restrictFunction === undefined || running.has(dc)) return undefined
  return answer(dc, session)
}

function answer(dc: DataClass, session: Session | undefined): ReadonlySet<number> | undefined {
  running.add(dc)
  let result: unknown
  try {
    result = dc.restrictFunction!.call(dc, { session })
  } finally {
    running.delete(dc)
  }
  return isSelection(result) && result.dataClass === dc
    ? new Set<number>(result.unorderedRowIds)
    : undefined
}

/**
 * `rows` narrowed by `dc`'s restrict (the same list when nothing is restricted). With
 * `keepDeleted`, a row deleted since stays (it reads as null): an entity set read by its owner
 * keeps its members as made, deleted ones counted, as any set does.
 */
export function restrictedRows(dc: DataClass, rows: RowIds, keepDeleted = false): RowIds {
  const allowed = restriction(dc)
  if (allowed === undefined) return rows
  const out: number[] = []
  const table = dc.table
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!
    if (allowed.has(row) || (keepDeleted && !table.has(row))) out.push(row)
  }
  return out
}

/** Whether row `rowId` of `dc` passes its restrict. */
export function visible(dc: DataClass, rowId: number): boolean {
  const allowed = restriction(dc)
  return allowed === undefined || allowed.has(rowId)
}

/**
 * `selection` without the entities its dataclass's `restrict` hides from the acting session, in
 * its order (itself when nothing is hidden): for a selection made elsewhere (a function's reply,
 * an entity set) that a session is about to see.
 */
export function restrictedSelection<S extends EntitySelection>(selection: S): S {
  const dc = selection.dataClass as unknown as DataClass
  if (restriction(dc) === undefined) return selection
  const rows = selection.rowIds
  const kept = restrictedRows(dc, rows)
  return (kept.length === rows.length ? selection : dc.select(kept)) as S
}
