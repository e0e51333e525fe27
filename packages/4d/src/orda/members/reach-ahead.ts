/**
 * @module The restricts of the dataclasses a member's text reaches through relations (a query's
 * `employer.name = :1`, an ordering's `employer.name`, an extracted path), answered ahead in
 * steps before the member runs (core's `queryReachInSteps`, `orderReachInSteps`,
 * `pathReachInSteps`): the query engine asks them as it reaches the relation, and finds them
 * kept. A related dataclass's restrict that loops then holds no other client when a function's
 * code reads through a relation in a REST call.
 */
import {
  orderReachInSteps,
  pathReachInSteps,
  queryReachInSteps,
  type DataClass,
} from '@entistore/core'
import type { Work } from '../../runtime/values/work.js'
import { coreSteps } from '../member-kit.js'
import type { World } from '../world-shape.js'

function* nothing(): Work<void> {}

/** `query(text; value…; settings)` of `dc`: what its text reaches (a formula reaches nothing). */
export function queryAhead(world: World, dc: DataClass, args: readonly unknown[]): Work<void> {
  const [text, ...values] = args
  if (typeof text !== 'string') return nothing()
  return coreSteps(queryReachInSteps(dc, text, () => values.map((v) => world.fromFourD(v))))
}

/** `orderBy(criteria)` of a selection of `dc`: what its paths reach. */
export function orderAhead(world: World, dc: DataClass, criteria: unknown): Work<void> {
  // Criteria given as a collection are converted only where a restrict may be asked.
  if (!dc.datastore.restricting) return nothing()
  const order = world.fromFourD(criteria)
  if (typeof order !== 'string' && !Array.isArray(order)) return nothing()
  return coreSteps(orderReachInSteps(dc, order as Parameters<typeof orderReachInSteps>[1]))
}

/**
 * The paths `paths` of `dc` read along its entities (those that are texts): what they reach,
 * the relations they end on too with `ends` (`extract()` gives their entities).
 */
export function* pathsAhead(dc: DataClass, paths: readonly unknown[], ends: boolean): Work<void> {
  for (const path of paths)
    if (typeof path === 'string') yield* coreSteps(pathReachInSteps(dc, path, ends))
}
