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
import type { Session } from '../../sessions/session-api.js'
import { noteReads, VOLATILE_READ } from '../../sessions/session-reads.js'
import type { Work } from '../../query/slices.js'
import type { RowMembership } from '../../sets/row-bitmap.js'
import type { RowIds } from '../../sets/row-ids.js'
import type { Actor } from '../../access/actor.js'
import type { Clock } from '../../clock/clock.js'
import type { RestrictedClass } from './restricted-class.js'
import { currentOwner } from '../calls/owners.js'
import { currentActor } from '../../access/acting.js'
import { holds, restrictAnswers, type RestrictAnswer } from './restrict-answers.js'
import { momentOf, sameMoment, type Moment } from './restrict-moment.js'
import { openTransactions } from '../processes.js'
import { contextOf, restrictRunning, run, runSteps } from './restrict-run.js'

export type { RestrictContext } from './restrict-run.js'
export { noteEveryEntity, restrictRunning } from './restrict-run.js'

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

/** The row ids `dc`'s restrict lets the acting view see, or undefined when nothing is restricted. */
export function restriction(dc: RestrictedClass): RowMembership | undefined {
  const fn = dc.restrictFunction
  if (fn === undefined || restrictRunning(dc)) return undefined
  const ds = dc.datastore
  const version = ds.store.version
  const { actor, view, id, session } = whoAsks(dc)
  // A process with staged writes reads them (transaction-reads.ts): its answer is its own, not kept.
  if (staging(dc)) {
    const own = run(dc, actor, session, version, undefined)
    noteReads(own.reads)
    return own.rows
  }
  const kept = lastServing(dc, version)
  if (kept !== undefined) {
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
    answer = run(dc, actor, session, version, `restrict\u0000${dc.name}\u0000${view}\u0000${id}`)
    // One that read what changes untold (the clock) serves the code that asked, in its moment.
    if ((answer.reads & VOLATILE_READ) === 0) answers.set(dc.name, view, id, answer)
  }
  // An answer of what else the code read makes whatever asked depend on it too.
  if (answer.reads !== 0) noteReads(answer.reads)
  last.set(dc, { answer, moment: momentOf(answer.reads, actor, ds.clock), view, session: id })
  return answer.rows
}

/**
 * `dc`'s restrict's answer for the acting view made ahead, in steps (its `steps`: code compiled
 * from 4D), and kept as `restriction` keeps one, which then finds it: what a write run in turns
 * does before it asks (writes.ts `saveSteps`), so that a restrict that loops holds no other
 * client there either. An answer the data, or the state it read, moved under is not kept: the
 * write's own ask then runs the restrict whole.
 */
export function* restrictionReady(dc: RestrictedClass): Work<void> {
  const steps = dc.restrictFunction?.steps
  if (steps === undefined || restrictRunning(dc) || staging(dc)) return
  const ds = dc.datastore
  const version = ds.store.version
  const { actor, view, id, session } = whoAsks(dc)
  const answers = restrictAnswers(ds)
  if (lastServing(dc, version) !== undefined) return
  if (answers.get(dc.name, view, id, session, version) !== undefined) return
  const ran = yield* runSteps(dc, steps, contextOf(session, actor), session, version)
  if (ran === undefined || ran.moved || (ran.answer.reads & VOLATILE_READ) !== 0) return
  if (holds(ran.answer, ds.store.version, session)) answers.set(dc.name, view, id, ran.answer)
}

// Who asks: the request's actor, or, outside a request, the owner `runAs` names (a session, or
// the process); the view the answer is for, and the session's id when the answer read it. One
// object filled again at each ask, which its callers read at once: `restriction` is asked at
// every row a request reads, and makes nothing there.
interface Asker {
  actor: Actor | undefined
  view: string
  id: string
  session: Session | undefined
}
const asker: Asker = { actor: undefined, view: '', id: '', session: undefined }

function whoAsks(dc: RestrictedClass): Asker {
  const ds = dc.datastore
  const actor = currentActor(ds)
  asker.actor = actor
  if (actor !== undefined) {
    asker.view = actor.view
    asker.session = actor.session
    asker.id = actor.session.id
  } else {
    const owner = currentOwner(ds)
    asker.view = `owner\u0000${owner.kind}\u0000${owner.id}`
    asker.id = ''
    asker.session = owner.kind === 'session' ? ds.sessions.peek(owner.id) : undefined
  }
  return asker
}

// The last answer of `dc`, when it serves who asks now (`whoAsks` just filled `asker`).
function lastServing(dc: RestrictedClass, version: number): Last | undefined {
  const kept = last.get(dc)
  return kept !== undefined &&
    kept.view === asker.view &&
    kept.session === asker.id &&
    serves(kept, version, asker.session, asker.actor, dc.datastore.clock)
    ? kept
    : undefined
}

// Whether the running process has staged writes, which its reads see (transaction-reads.ts).
const staging = (dc: RestrictedClass): boolean =>
  openTransactions !== 0 && (dc.datastore.processes.openTransaction()?.size ?? 0) > 0

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
