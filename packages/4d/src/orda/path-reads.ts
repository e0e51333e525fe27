/**
 * @module A member that reads paths of entities (`toCollection("ID, employer.name")`,
 * `$e.toObject("employer.heavy")`, `extract("employer.name")`) in steps: the restricts of the
 * dataclasses its relation paths reach answered ahead in steps (core's `pathReachInSteps`), then
 * the getters with steps its paths end on called in steps (attribute-steps.ts `gettersOfPaths`),
 * then the plain member, which finds both. A restrict or a getter that loops holds no other
 * client when a function's code reads so in a REST call.
 */
import { pathReachInSteps, type DataClass, type Entity, type EntityDraft } from '@entistore/core'
import type { Work } from '../runtime/values/work.js'
import { gettersOfPaths, type PathsRead } from './attribute-steps.js'
import { coreSteps } from './member-kit.js'

/**
 * `read()` (the member), in steps when its `paths` of `dc` reach a restrict or a getter with
 * steps, for the `entities` it reads (as `gettersOfPaths` takes them); undefined when they reach
 * neither that may stop (a datastore without restricts, paths through no relation, no getter
 * with steps): the member then runs at once.
 */
export function pathsRead<T>(
  dc: DataClass,
  paths: readonly unknown[],
  how: PathsRead,
  entities: () => Iterable<Entity | EntityDraft | null>,
  read: () => T,
): Work<T> | undefined {
  const getters = gettersOfPaths(dc, paths, how, entities, read)
  if (!dc.datastore.restricting) return getters
  // A filter's names are trimmed (core's `filterOf`), `extract()`'s path is taken as it is.
  const through = paths.flatMap((p) =>
    typeof p === 'string' && p.includes('.') ? [how === 'filter' ? p.trim() : p] : [],
  )
  return through.length === 0 ? getters : restrictsFirst(dc, through, getters, read)
}

function* restrictsFirst<T>(
  dc: DataClass,
  through: readonly string[],
  getters: Work<T> | undefined,
  read: () => T,
): Work<T> {
  for (const path of through) yield* coreSteps(pathReachInSteps(dc, path, true))
  return getters === undefined ? read() : yield* getters
}
