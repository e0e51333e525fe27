/**
 * @module The setters of a write's computed attributes (`Function set` of a 4D project's class)
 * called in steps before the write, in its slices (write-steps.ts `saveSteps`: the REST
 * interface's `$method=update`, a `fromCollection` in a call in slices; entity-draft.ts
 * `prepareSave`: a save with events, 4D code's `$e.save()` in steps), so that a setter that
 * loops holds no other client. The write then finds their answers (txn/sets-ahead.ts) where it
 * would have called them: what a setter gave is checked, permitted and written there, and what it
 * threw is thrown there, as a setter called by the write would: nothing of the write applied.
 */
import type { Work } from '../../query/slices.js'
import type { DataClassDef, EntityView } from '../../schema/definitions.js'
import { isDeferred, setEvent } from '../../txn/computed-sets.js'
import { SetsAhead, withSetsAhead, type SetBase } from '../../txn/sets-ahead.js'
import type { Assignments } from '../../txn/write-values.js'
import { coerceToType, type StoredValue } from '../../values/coerce.js'
import { writingOn } from './writing.js'

// Per dataclass: whether one of its computed attributes' setters has a steps form.
const withSteps = new WeakMap<DataClassDef, boolean>()

/** Whether a computed attribute of `dc` has a setter with a steps form (a 4D project's). */
export function hasSetterSteps(dc: DataClassDef): boolean {
  let has = withSteps.get(dc)
  if (has === undefined) {
    has = dc.attributes.some((a) => a.kind === 'calculated' && a.setSteps !== undefined)
    withSteps.set(dc, has)
  }
  return has
}

/** Whether `values` names a computed attribute of `dc` whose setter has a steps form. */
export function namesSetterSteps(dc: DataClassDef, values: Assignments): boolean {
  if (!hasSetterSteps(dc)) return false
  for (const name of Object.keys(values)) {
    const attr = dc.attributesByName.get(name)
    if (attr?.kind === 'calculated' && attr.setSteps !== undefined) return true
  }
  return false
}

/**
 * `write` (a write of `values` to an entity of `dc`) once the setters `values` names have been
 * called in steps on `base` (the version it updates, an Entity; null for a create), in the order
 * the write calls them, their answers kept for it. A setter that throws ends the calls: the write
 * throws it. A value the setter cannot take (of the wrong type) ends them too: the write refuses
 * it as it would. A setter that declines its steps form is called by the write.
 */
export function* settersAhead<T>(
  written: { readonly def: DataClassDef; readonly datastore: object },
  values: Assignments,
  base: object | null,
  write: () => T,
): Work<() => T> {
  const dc = written.def
  // Most dataclasses have none, and a save in steps of 4D code (`$e.save()`) asks at every one.
  if (!hasSetterSteps(dc)) return write
  // An entity (core's Entity, a version of the dataclass) as the setter has it (`this`).
  const view = base as (EntityView & SetBase) | null
  const answers = new SetsAhead(view === null ? null : { key: view.key, stamp: view.stamp })
  for (const name of Object.keys(values)) {
    const raw = values[name]
    const attr = dc.attributesByName.get(name)
    if (raw === undefined || attr?.kind !== 'calculated' || attr.set === undefined) continue
    if (isDeferred(raw)) continue
    let value: StoredValue
    try {
      // As the write gives it (computed-sets.ts `setValue`): dates are days.
      value = coerceToType(attr.type, raw, true)
    } catch {
      break
    }
    // Made as the write's: a setter of a create (no `this`) finds its datastore (writing.ts).
    const work = writingOn(written.datastore, () =>
      attr.setSteps?.call(view, value, setEvent(dc, attr, value)),
    )
    if (work === undefined) continue
    try {
      answers.keep(attr, { value: yield* work })
    } catch (error) {
      answers.keep(attr, { error })
      break
    }
  }
  return answers.empty ? write : () => withSetsAhead(answers, write)
}
