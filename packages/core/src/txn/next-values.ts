/**
 * @module An update's next version of an entity's values, and the patches that say what changed:
 * what immer's `produceWithPatches` gives for a flat values object whose attributes are assigned,
 * without a draft. A draft costs a Proxy, a copy on the first write and a finalization pass over
 * the object; a CPU profile of 1M updates by key put `produceWithPatches` at 32% of the run, 40% of
 * an update. The values object is flat (one field per storage attribute), so a copy and the list
 * of the fields that changed are all a draft gave. The property test holds the two together on
 * random objects and assignments: the same values, patches, identity when nothing changed, and
 * freezing. immer still freezes the values written (an object attribute's JSON, deeply). A table
 * copies its records' values with a copier of its own (values-shape.ts): `copy`.
 */
import { freeze, type Patch } from 'immer'
import type { StoredValue } from '../values/coerce.js'

type Values = Readonly<Record<string, StoredValue>>

/**
 * `base` with each `[name, value]` of `assignments` written in turn, frozen, and the patches of the
 * fields whose value differs from `base`'s at the end (`replace`, or `add` for a field `base` has
 * not), in the order they were first changed. `base` itself, and no patch, when no assignment
 * changes anything. With `patched` false, no patch is made (the same call with it true gives them:
 * a single update makes them only when a commit listener reads them).
 */
export function nextValues(
  base: Values,
  assignments: readonly (readonly [string, StoredValue])[],
  copy: (base: Values) => Record<string, StoredValue> = spread,
  patched = true,
): [Values, Patch[]] {
  let next: Record<string, StoredValue> | undefined
  const changed: string[] = []
  for (const [name, value] of assignments) {
    if (next === undefined) {
      // Before the first change, a write of the value there changes nothing (Object.is)…
      if (Object.is(base[name], value) && (value !== undefined || Object.hasOwn(base, name)))
        continue
      next = copy(base)
    }
    // …and after it, nor does one equal by === (0 over -0 keeps -0), or NaN over NaN: immer's rules.
    const current = next[name]
    if (
      (current === value && (value !== undefined || Object.hasOwn(next, name))) ||
      (Number.isNaN(value) && Number.isNaN(current))
    )
      continue
    // A field named `__proto__` stays a field (an assignment would set the prototype).
    if (name === '__proto__')
      Object.defineProperty(next, name, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      })
    else next[name] = value
    if (!changed.includes(name)) changed.push(name)
  }
  if (next === undefined) return [base, []]
  const patches: Patch[] = []
  for (const name of changed) {
    const value = next[name]
    // Only an object needs immer's deep freeze: a call for a number or a text, which is frozen
    // already, was a call into immer for every update.
    if (typeof value === 'object' && value !== null) freeze(value, true)
    if (!patched) continue
    const had = Object.hasOwn(base, name)
    if (had && base[name] === value) continue
    patches.push({ op: had ? 'replace' : 'add', path: [name], value })
  }
  return [Object.freeze(next), patches]
}

/** A copy of any values object: its own enumerable fields (a table has a faster copier of its own). */
const spread = (base: Values): Record<string, StoredValue> => ({ ...base })
