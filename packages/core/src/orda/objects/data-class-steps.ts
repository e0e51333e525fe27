/**
 * @module A dataclass's saves and drops as work in steps (orda/writes/write-steps.ts), for a
 * transport that runs them in slices with `workInTurns` (the REST interface's `$method=update`
 * and `$method=delete`), which runs the write they give with `writeInSteps` (its after-events in
 * steps): a restrict or an entity event that loops holds no other client; and `fromCollection`'s
 * saves, for 4D code's in a call in slices.
 */
import type { Work } from '../../query/slices.js'
import { toKey } from '../../store/keys.js'
import type { Assignments, WriteCheck } from '../../txn/transaction.js'
import { restrictionReady } from '../restrict/restrict.js'
import { dropSteps, saveSteps } from '../writes/write-steps.js'
import { writeInSteps } from '../writes/after-commit.js'
import { collectionObjects, objectWrite } from '../members/from-collection.js'
import { ORDERED } from '../selections/selection-traits.js'
import type { EntitySelection } from './entity-selection.js'
import type { WriteValues } from './attribute-types.js'
import type { DataClass } from './data-class.js'
import type { Entity } from './entity.js'
import type { EntityDraft } from './entity-draft.js'
import type { DataClassName, ModelTypes } from '../../schema/typed-model.js'

/**
 * `dc.create(values)` (`key` undefined) or `dc.update(key, values, check)` as work in steps: its
 * restrict and its events before the write run in steps where they can (code compiled from 4D),
 * and the work gives the write, to call once they are done. The entity's stamp is checked when
 * the write runs.
 */
export function saveInSteps<M extends ModelTypes, N extends DataClassName<M>>(
  dc: DataClass<M, N>,
  key: unknown,
  values: WriteValues<M, N>,
  check?: WriteCheck,
): Work<() => Entity<M, N>> {
  const keyed = key === undefined ? undefined : toKey(dc.def, key)
  return saveSteps(dc, keyed, values, check) as Work<() => Entity<M, N>>
}

/**
 * `dc.new(values)` as work in steps: the new entity's `constructor` event, then each value set
 * with its `touched` events, each in steps where it can (code compiled from 4D): what 4D code's
 * `ds.Item.new()` runs in a call in slices.
 */
export function newInSteps<M extends ModelTypes, N extends DataClassName<M>>(
  dc: DataClass<M, N>,
  values?: WriteValues<M, N>,
): Work<EntityDraft<M, N>> {
  return dc.draft(null, undefined, true).madeSteps(values as Assignments | undefined)
}

/** `dc.drop(key, check)` as work in steps, as `saveInSteps`. */
export function dropInSteps(dc: DataClass, key: unknown, check?: WriteCheck): Work<() => void> {
  return dropSteps(dc, toKey(dc.def, key), check)
}

/**
 * `dc`'s restrict answered ahead, in steps where it can (code compiled from 4D), for the view
 * that acts, and kept as a read of `dc` keeps it, which then finds it: what a caller in slices
 * does before it reads `dc` (4D code's `ds.Item.query(…)` in a REST call), so that a restrict that
 * loops holds no other client there either. An answer that read what moves without a commit (the
 * `Storage`, the session's storage) is not kept: the read then runs the restrict whole.
 */
export function restrictInSteps(dc: DataClass): Work<void> {
  return restrictionReady(dc)
}

/**
 * `dc.fromCollection(objects)` as work in steps: each object's write (from-collection.ts
 * `objectWrite`) as `saveInSteps` runs it, then its after-events in steps (`writeInSteps`), a step
 * between two objects; each saved on its own, as the plain member saves them (a failure throws,
 * the objects before it saved). What 4D code's `ds.Item.fromCollection($c)` runs in a call in
 * slices: an event that loops holds no other client.
 */
export function* fromCollectionSteps<M extends ModelTypes, N extends DataClassName<M>>(
  dc: DataClass<M, N>,
  objects: readonly object[],
): Work<EntitySelection<M, N>> {
  const rows: number[] = []
  for (const object of collectionObjects(objects)) {
    if (rows.length > 0) yield
    const write = objectWrite(dc as unknown as DataClass, object)
    if (write.kind === 'same') {
      rows.push(write.entity.rowId)
      continue
    }
    const save =
      write.kind === 'create'
        ? yield* saveSteps(dc, undefined, write.values)
        : yield* saveSteps(dc, write.entity.key, write.values, write.check)
    rows.push((yield* writeInSteps(save)).rowId)
  }
  return dc.select(rows, undefined, ORDERED)
}
