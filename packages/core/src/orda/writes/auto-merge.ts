/**
 * @module 4D's `dk auto merge` for `draft.save({ autoMerge: true })`: a draft whose entity was saved
 * by someone else since its base was read is saved all the same when the two saves touched
 * different attributes, the result holding both; when they touched one attribute in common the
 * save fails with status 6 "Auto merge failed". As in 4D, a concurrent change of an attribute
 * held outside the record (4D: picture, object, text; here picture, BLOB and object, whose values
 * are held whole) cannot be merged: status 2 "Stamp has changed".
 *
 * It compares versions only: the draft (orda/objects/entity-draft.ts) reads them and saves.
 */
import { SAVE_STATUS, type SaveStatus } from '../../txn/save-status.js'
import type { DataClassDef } from '../../schema/definitions.js'
import type { StoredValues } from '../../store/entity-record.js'
import { sameValue } from '../members/entity-objects.js'

const UNMERGEABLE: ReadonlySet<string> = new Set(['image', 'blob', 'object'])

/**
 * Why a draft that writes the slots `written` over `base` cannot be merged with `current` (the
 * version saved since): status 6 when the other save changed one of them too, 2 when it changed a
 * picture, BLOB or object; undefined when it can.
 */
export function mergeRefusal(
  def: DataClassDef,
  base: StoredValues,
  current: StoredValues,
  written: ReadonlySet<string>,
): SaveStatus | undefined {
  let refusal: SaveStatus | undefined
  for (const slot of def.storage) {
    if (sameValue(base[slot.name] ?? null, current[slot.name] ?? null)) continue
    if (written.has(slot.name)) return SAVE_STATUS.autoMergeFailed
    if (UNMERGEABLE.has(slot.type)) refusal = SAVE_STATUS.stampHasChanged
  }
  return refusal
}
