/**
 * @module What a draft's save (entity-draft.ts) decides before it writes: to answer at once
 * (nothing pending, the entity gone, two saves that cannot merge), or to write with a check of
 * the stamp, answering a success of its kind then. `save()` and `saveSteps()` share it, so that a
 * save run in slices decides as the plain one does.
 */
import { SAVE_STATUS, type WriteResult } from '../../txn/save-status.js'
import type { WriteCheck } from '../../txn/transaction.js'
import { mergeRefusal } from '../writes/auto-merge.js'
import { currentVersion } from '../writes/writes.js'
import type { WrittenClass, WrittenEntity } from '../writes/written-class.js'

// Status 5, "Entity does not exist": what 4D answers for an entity that is gone.
export const GONE = Object.freeze({ success: false, ...SAVE_STATUS.entityDoesNotExist })

// A save's success, with `autoMerged` when `{ autoMerge: true }` asked (4D gives it only then).
const saved = (merge: boolean, merged: boolean): WriteResult =>
  merge ? { success: true, autoMerged: merged } : { success: true }

export type SavePlan =
  | { readonly answer: WriteResult }
  | {
      readonly answer: undefined
      readonly check: WriteCheck | undefined
      readonly success: WriteResult
    }

/**
 * The plan of a save of a draft of `dc` over `base` (null for a new entity), `touched` whether it
 * has pending values, `written` its touched attributes (asked only to merge).
 */
export function savePlan(
  dc: WrittenClass,
  base: WrittenEntity | null,
  touched: boolean,
  written: () => Iterable<string>,
  merge: boolean,
): SavePlan {
  if (base && !touched) return { answer: saved(merge, false) }
  const current = base && merge ? currentVersion(dc, base.key) : base
  if (base && !current) return { answer: GONE }
  if (!base || !current || current.stamp === base.stamp)
    return {
      answer: undefined,
      check: base ? { stamp: base.stamp } : undefined,
      success: saved(merge, false),
    }
  // Saved by someone else since: merged when the two saves wrote different attributes.
  const refused = mergeRefusal(dc.def, base.values, current.values, new Set(written()))
  if (refused) return { answer: { success: false, ...refused } }
  return { answer: undefined, check: { stamp: current.stamp }, success: saved(merge, true) }
}
