/**
 * @module A dataclass's `restrict` event (4D 20 R5, `Function event restrict` in the DataClass
 * class): the selection a caller may see. It narrows every read of the dataclass the API makes:
 * `all()`, queries, `get()` (null outside it), the entities a relation leads to, and what is made
 * from those (orderings, slices, set algebra, aggregates, entity sets). An update or drop of an
 * entity outside it is refused as if the entity did not exist (1542). New entities are not.
 *
 * The function answers for a **view**: the acting session with the privileges in force, those a
 * running function promotes included (access/actor.ts `view`), as 4D's `Session.hasPrivilege`
 * answers inside a promoted function. It gets that session (`{ session }`, seen with the promoted
 * privileges; `currentSession()` gives the same), or none for TypeScript called outside a request,
 * and returns an EntitySelection of the dataclass, or null/undefined (or anything else, as 4D
 * says) for no restriction; a Promise (an async function) closes the dataclass instead. Inside it, the dataclass's own reads are not narrowed (it would call
 * itself).
 *
 * Its answers are kept per view and data version (restrict-answers.ts): one answer serves every
 * session of the same user and privileges, unless the code read the session's own state (its id,
 * storage, data): then that session's alone. A promoted call and the caller's next request are
 * two views, two answers. An answer never outlives what its code read besides the data
 * (sessions/session-reads.ts notes it during the run): one that read the session's own state (its
 * storage) or shared state (4D's `Storage`, singletons) serves no read after that state changed;
 * one that read what changes untold (the clock) is kept only in `last`, for the moment it serves
 * (restrict-moment.ts: the code that asked, until its next await or millisecond). Whatever asks
 * inherits what the answer read (a restrict whose query reaches this dataclass).
 *
 * The query engine narrows what a relation leads to as well (query/visibility.ts, implemented by
 * restrict-visibility.ts): a filter, an ordering or a query path's counts through a relation.
 *
 * Not narrowed: entity sets kept from before the restriction changed.
 */
import { DatastoreError } from '../../errors/datastore-error.js'
import type { Session } from '../../sessions/session-api.js'
import { promotedSession } from '../../sessions/session-privileges.js'
import {
  noteReads,
  readsOf,
  sessionStateVersion,
  trackedSession,
  VOLATILE_READ,
  type Reads,
} from '../../sessions/session-reads.js'
import { RowBitmap, type RowMembership } from '../../sets/row-bitmap.js'
import type { RowIds } from '../../sets/row-ids.js'
import type { Actor } from '../../access/actor.js'
import type { Clock } from '../../clock/clock.js'
import { kindOf } from '../kinds/object-kind.js'
import type { RestrictedClass, RestrictedSelection } from './restricted-class.js'
import { currentOwner } from '../calls/owners.js'
import { currentActor } from '../../access/acting.js'
import { holds, restrictAnswers, type RestrictAnswer } from './restrict-answers.js'
import { momentOf, sameMoment, type Moment } from './restrict-moment.js'
import { openTransactions } from '../processes.js'
import { keptRows } from './restrict-queries.js'

/** What `restrict` receives. */
export interface RestrictContext {
  /** The session of the REST request (or function call) the read is for; undefined for none. */
  readonly session: Session | undefined
}

// The last answer of each dataclass, for which view and session: a request asks at every row it
// reads, so the usual case compares a few fields and makes no key. An answer that read state
// changing untold (VOLATILE_READ) is kept here alone, for the moment it serves (`Moment`).
interface Last {
  readonly answer: RestrictAnswer
  readonly moment: Moment
  readonly view: string
  readonly session: string
}
const last = new WeakMap<RestrictedClass, Last>()
// The dataclasses whose restrict is running: their own reads inside it are not narrowed.
const running = new WeakSet<RestrictedClass>()

// The selections of every entity (`all()`) made by a restrict of its own dataclass.
const everyEntity = new WeakSet<RestrictedSelection>()

/** Notes that `selection` is every entity of its dataclass: a restrict answering it restricts nothing. */
export function noteEveryEntity(selection: RestrictedSelection): void {
  everyEntity.add(selection)
}

/** Whether `dc`'s restrict is running now (its own reads are then not narrowed). */
export function restrictRunning(dc: RestrictedClass): boolean {
  return running.has(dc)
}

/** The row ids `dc`'s restrict lets the acting view see, or undefined when nothing is restricted. */
export function restriction(dc: RestrictedClass): RowMembership | undefined {
  const fn = dc.restrictFunction
  if (fn === undefined || running.has(dc)) return undefined
  const ds = dc.datastore
  const version = ds.store.version
  const actor = currentActor(ds)
  let view: string
  let id: string
  let session: Session | undefined
  if (actor !== undefined) {
    view = actor.view
    session = actor.session
    id = session.id
  } else {
    // Outside a request: the owner `runAs` names (a session, or the process).
    const owner = currentOwner(ds)
    view = `owner\u0000${owner.kind}\u0000${owner.id}`
    id = ''
    session = owner.kind === 'session' ? ds.sessions.peek(owner.id) : undefined
  }
  // A process with staged writes reads them (transaction-reads.ts): its answer is its own, not kept.
  if (openTransactions !== 0 && (ds.processes.openTransaction()?.size ?? 0) > 0) {
    const own = run(dc, actor, session, version)
    noteReads(own.reads)
    return own.rows
  }
  const kept = last.get(dc)
  if (
    kept !== undefined &&
    kept.view === view &&
    kept.session === id &&
    serves(kept, version, session, actor, ds.clock)
  ) {
    const reads = kept.answer.reads
    if (reads !== 0) noteReads(reads)
    return kept.answer.rows
  }
  // A session that reads a restricted dataclass may hold its entities: the witnesses of its
  // deletions are taken among those (deletion-witnesses.ts), as themselves.
  if (session !== undefined) ds.deletionWitnesses.noteReader(dc, session, actor?.rule)
  const answers = restrictAnswers(ds)
  let answer = answers.get(dc.name, view, id, session, version)
  if (answer === undefined) {
    answer = run(dc, actor, session, version)
    // One that read what changes untold (the clock) serves the code that asked, in its moment.
    if ((answer.reads & VOLATILE_READ) === 0) answers.set(dc.name, view, id, answer)
  }
  // An answer of what else the code read makes whatever asked depend on it too.
  if (answer.reads !== 0) noteReads(answer.reads)
  last.set(dc, { answer, moment: momentOf(answer.reads, actor, ds.clock), view, session: id })
  return answer.rows
}

// Whether the last answer serves this read too: the usual one read nothing besides the data and
// who asks, and holds while the data do; another, while what else it read holds too, and in its
// moment for what changes untold.
function serves(
  kept: Last,
  version: number,
  session: Session | undefined,
  actor: Actor | undefined,
  clock: Clock,
): boolean {
  const answer = kept.answer
  if (answer.reads === 0) return answer.version === version
  return (
    holds(answer, version, session) &&
    ((answer.reads & VOLATILE_READ) === 0 || sameMoment(kept.moment, actor, clock))
  )
}

function run(
  dc: RestrictedClass,
  actor: Actor | undefined,
  session: Session | undefined,
  version: number,
): RestrictAnswer {
  // The session as the code sees it: its reads noted, the promoted privileges held.
  let seen = session && trackedSession(session)
  if (seen && actor !== undefined && actor.promoted.size > 0)
    seen = promotedSession(seen, actor.promoted)
  running.add(dc)
  let ran: { value: unknown; reads: Reads; version: number }
  try {
    ran = readsOf(() => refusedAsClosed(() => dc.restrictFunction!.call(dc, { session: seen })))
  } finally {
    running.delete(dc)
  }
  const result = ran.value
  // A query kept between writes comes with its bitmap (restrict-queries.ts): no array made.
  const rows =
    isSelection(result) && result.dataClass === dc
      ? everyEntity.has(result) && !result.isAlterable()
        ? undefined
        : (keptRows(result) ?? RowBitmap.of(result.unorderedRowIds))
      : result === CLOSED
        ? RowBitmap.of([])
        : isThenable(result)
          ? closed(result)
          : undefined
  return { version, rows, reads: ran.reads, shared: ran.version, own: sessionStateVersion(session) }
}

// What a restrict answers when its own code is refused what it reads (the view may not read an
// attribute or a dataclass its query names): its rule cannot be applied, so nothing of the
// dataclass is seen, rather than the whole request refused (or a write's reply, after its commit).
const CLOSED = Symbol('closed')

function refusedAsClosed(run: () => unknown): unknown {
  try {
    return run()
  } catch (error) {
    if (DatastoreError.is(error) && error.category === 'forbidden') return CLOSED
    throw error
  }
}

// A selection, by the tag its class carries (kinds/object-kind.ts): restrict does not name the class.
const isSelection = (v: unknown): v is RestrictedSelection => kindOf(v) === 'selection'

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  typeof (v as PromiseLike<unknown> | null)?.then === 'function'

// An async restrict answers too late for the read that asked: its rule is not known, and a rule
// not known closes the dataclass (nothing is seen) rather than open it. 4D's restrict is
// synchronous; only JavaScript can write this, by mistake.
function closed(answer: PromiseLike<unknown>): RowBitmap {
  Promise.resolve(answer).catch(() => undefined)
  return RowBitmap.of([])
}

/**
 * `rows` narrowed by `dc`'s restrict (the same list when nothing is restricted). With
 * `keepDeleted`, a row deleted since stays (it reads as null): an entity set read by its owner
 * keeps its members as made, deleted ones counted, as any set does.
 */
export function restrictedRows(dc: RestrictedClass, rows: RowIds, keepDeleted = false): RowIds {
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
export function visible(dc: RestrictedClass, rowId: number): boolean {
  const allowed = restriction(dc)
  return allowed === undefined || allowed.has(rowId)
}
