/**
 * @module The members of a draft that a user may try on an Entity (`entity.save()`, as in 4D,
 * where an entity is saved in place): on an Entity they throw 9162, whose message names the draft
 * to call them on (`entity.edit().save()`), where JavaScript would answer "save is not a
 * function". They are not in the Entity's type, so that TypeScript refuses them where it sees
 * them; and a dataclass's attribute of one of these names keeps its property (the attribute wins).
 */
import { fail } from '../../errors/datastore-error.js'

/** Each member, and the call on a draft that does what the user meant. */
const DRAFT_ONLY: ReadonlyArray<readonly [member: string, call: string]> = [
  ['save', 'entity.edit().save()'],
  ['saveOrFail', 'entity.edit().saveOrFail()'],
  ['set', 'entity.edit().set(name, value).save()'],
  ['fromObject', 'entity.edit().fromObject(values).save()'],
]

/** Puts the members on `prototype` (one dataclass's Entity class), after its attribute properties. */
export function addDraftOnlyMembers(prototype: object, dataClass: string): void {
  for (const [member, call] of DRAFT_ONLY) {
    if (Object.prototype.hasOwnProperty.call(prototype, member)) continue // an attribute's property
    Object.defineProperty(prototype, member, {
      value: function draftOnly(): never {
        return fail('DraftOnlyMember', [dataClass, member, call])
      },
      enumerable: false,
      configurable: false,
      writable: false,
    })
  }
}
