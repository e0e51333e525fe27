/**
 * @module How a dataclass's `restrict` code is run (restrict.ts decides when, and keeps what it
 * answered): plain, or in steps in a read's slices; where its own reads are not narrowed; what it
 * read besides the data (sessions/session-reads.ts); and the answer its value makes.
 */
import { DatastoreError } from '../../errors/datastore-error.js'
import type { Session } from '../../sessions/session-api.js'
import { promotedSession } from '../../sessions/session-privileges.js'
import {
  readsOf,
  SESSION_READ,
  SHARED_READ,
  sessionStateVersion,
  sharedStateAt,
  trackedSession,
  type Reads,
} from '../../sessions/session-reads.js'
import { currentScope, sliceableByKey, type Work } from '../../query/slices.js'
import { RowBitmap } from '../../sets/row-bitmap.js'
import type { Actor } from '../../access/actor.js'
import { kindOf } from '../kinds/object-kind.js'
import type { RestrictedClass, RestrictedSelection } from './restricted-class.js'
import { holds, type RestrictAnswer } from './restrict-answers.js'
import { keptRows } from './restrict-queries.js'

/** What `restrict` receives. */
export interface RestrictContext {
  /** The session of the REST request (or function call) the read is for; undefined for none. */
  readonly session: Session | undefined
}

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

/**
 * The answer of `dc`'s restrict for the view, its code run as `actor` (or for `session` outside a
 * request) at data `version`. In a read's slices (`point`: its key there), a restrict that runs in
 * steps (its `steps`: code compiled from 4D) runs as the read's other heavy work does, in slices:
 * a restrict that loops holds no other client.
 */
export function run(
  dc: RestrictedClass,
  actor: Actor | undefined,
  session: Session | undefined,
  version: number,
  point: string | undefined,
): RestrictAnswer {
  const context = contextOf(session, actor)
  const steps = dc.restrictFunction!.steps
  if (point !== undefined && steps !== undefined && currentScope() !== undefined) {
    const ran = sliceableByKey(
      point,
      () => runSteps(dc, steps, context, session, version),
      // Kept between the read's runs while what it read holds (the data, the shared state and
      // the session's own state, each as it was at every step).
      (r) => r === undefined || (!r.moved && holds(r.answer, version, session)),
    )
    if (ran !== undefined && !ran.moved) return ran.answer
  }
  running.add(dc)
  let ran: { value: unknown; reads: Reads; version: number }
  try {
    ran = readsOf(() => refusedAsClosed(() => dc.restrictFunction!.call(dc, context)))
  } finally {
    running.delete(dc)
  }
  return answerOf(dc, ran.value, version, ran.reads, ran.version, session)
}

/** The session as the code sees it: its reads noted, the promoted privileges held. */
export function contextOf(session: Session | undefined, actor: Actor | undefined): RestrictContext {
  let seen = session && trackedSession(session)
  if (seen && actor !== undefined && actor.promoted.size > 0)
    seen = promotedSession(seen, actor.promoted)
  return { session: seen }
}

/**
 * What a run in steps gave: its answer, and whether shared or session state it read changed
 * between two of its steps (it then read a mix of two states, and the answer serves nothing).
 */
export interface Stepped {
  readonly answer: RestrictAnswer
  readonly moved: boolean
}

/**
 * The restrict run in steps, each step where its own reads are not narrowed and what it reads is
 * noted; undefined when it has no steps after all (its code is not 4D's). Closed before its end
 * (its read dropped: `SliceScope.cancel`), it closes the restrict's steps where they stopped, so
 * that their `finally` blocks run at once (a 4D `Use` block they are inside lets go of its lock).
 */
export function* runSteps(
  dc: RestrictedClass,
  steps: NonNullable<RestrictedClass['restrictFunction']>['steps'] & {},
  context: RestrictContext,
  session: Session | undefined,
  version: number,
): Work<Stepped | undefined> {
  let g: Generator<unknown, unknown, void> | undefined
  let reads: Reads = 0
  let shared = -1
  let own = 0
  let moved = false
  try {
    for (;;) {
      // State it read changed while it waited for its next slice: a mix of two states.
      if (g !== undefined && (!sharedStateAt(shared) || own !== sessionStateVersion(session)))
        moved = true
      running.add(dc)
      let ran: { value: unknown; reads: Reads; version: number }
      try {
        ran = readsOf(() => refusedAsClosed(() => (g ??= steps.call(dc, context))?.next()))
      } finally {
        running.delete(dc)
      }
      reads |= ran.reads
      shared = ran.version
      own = sessionStateVersion(session)
      const r = ran.value as IteratorResult<unknown, unknown> | typeof CLOSED | undefined
      if (r === undefined) return undefined
      if (r === CLOSED || r.done === true) {
        const value = r === CLOSED ? CLOSED : r.value
        return {
          answer: answerOf(dc, value, version, reads, shared, session),
          moved: moved && (reads & (SHARED_READ | SESSION_READ)) !== 0,
        }
      }
      yield
    }
  } finally {
    // A no-op once the steps ended or threw: this closes only steps left at a stop.
    g?.return(undefined)
  }
}

// The answer a run's value makes: a selection of the dataclass restricts (a query kept between
// writes comes with its bitmap: restrict-queries.ts, no array made), anything else does not.
function answerOf(
  dc: RestrictedClass,
  result: unknown,
  version: number,
  reads: Reads,
  shared: number,
  session: Session | undefined,
): RestrictAnswer {
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
  return { version, rows, reads, shared, own: sessionStateVersion(session) }
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
