/**
 * @module The values a reply writes of computed attributes whose getters have steps (a 4D
 * project's), made ahead in the read's slices.
 *
 * A reply is written after the request's run, a piece at a time as its client reads, and each
 * piece is written at once: a getter called there (`GET /rest/Task(2)`, a page showing a getter
 * that loops) held every other client for as long as it ran, the whole budget for one that never
 * ends. So a read in a slice scope makes those values first, as one more piece of its work
 * (slices.ts `sliceable`): each call in steps, the slices stopping inside its code, and the
 * writing finds them (schema/getter-calls.ts `AnswersAhead`). A call's error is kept and thrown
 * where the writing reads the value, as the call made there would have thrown it.
 *
 * The values are those of the data as it is when the request's last run makes its reply: a commit
 * between two slices runs the work again (getters read anything: no refresh from the changed
 * rows can be trusted), and after MAX_RESTARTS it runs in one piece, as any other.
 */
import {
  AnswersAhead,
  currentAnswersAhead,
  getterSteps,
  hasGetterSteps,
  withAnswersAhead,
} from '../schema/getter-calls.js'
import type { CalculatedFn, EntityView } from '../schema/definitions.js'
import type { Clock } from '../clock/clock.js'
import { currentScope, sliceable, type Work } from './slices.js'
import { workInTurns } from './work-in-turns.js'

export { AnswersAhead, currentAnswersAhead, getterSteps, hasGetterSteps, withAnswersAhead }
export type { GetterAnswer } from '../schema/getter-calls.js'

/** One getter call a reply will make: the entity, and its computed attribute's getter. */
export type GetterCall = readonly [entity: EntityView, getter: CalculatedFn]

/**
 * The answers of the calls `calls()` gives (those of getters with steps; the others are called
 * where the reply reads them), each made once, in the read's slices: undefined outside a slice
 * scope (the writing then calls them at once, as a library's caller does).
 */
export function gettersAhead(calls: () => Iterable<GetterCall>): AnswersAhead | undefined {
  if (currentScope() === undefined) return undefined
  return sliceable('getters-ahead', () => answersWork(calls()))
}

/**
 * The same, for a reply made outside a read (a function's result, once its call has returned):
 * in slices of their own, a turn of the event loop between two (query/work-in-turns.ts); at once
 * when they end within the first.
 */
export function gettersAheadInTurns(
  calls: Iterable<GetterCall>,
  clock: Clock,
): AnswersAhead | Promise<AnswersAhead> {
  return workInTurns(answersWork(calls), clock)
}

function* answersWork(calls: Iterable<GetterCall>): Work<AnswersAhead> {
  const answers = new AnswersAhead()
  for (const [entity, getter] of calls) {
    const key = entity.getKey()
    if (answers.has(getter, key)) continue
    // None (not a getter with steps, or 4D code running): the writing calls it at once.
    const work = getterSteps(getter, entity)
    if (work === undefined) continue
    try {
      answers.keep(getter, key, { value: yield* work })
    } catch (error) {
      answers.keep(getter, key, { error })
    }
    yield
  }
  return answers
}
