/**
 * @module Computed attributes written through their `set` functions: a transaction gives the
 * value (converted to the attribute's type) to the function and writes the assignments it returns
 * instead, checked like any others. A value the write names explicitly wins over the one a `set`
 * function gives for the same attribute. What a function assigns is asked of whoever writes
 * (`permit`) as a write of its own: a setter writes nothing its caller may not.
 */
import { fail } from '../errors/datastore-error.js'
import { fromFunction } from '../errors/from-function.js'
import type {
  CalculatedAttributeDef,
  ComputedSetEvent,
  DataClassDef,
  EntityView,
} from '../schema/definitions.js'
import type { Locate } from '../store/changes.js'
import type { EntityRecord } from '../store/entity-record.js'
import type { StoredValue } from '../values/coerce.js'
import { CoercionError, coerceToType, describeValue } from '../values/coerce.js'
import { setAnswerAhead } from './sets-ahead.js'
import type { Assignments, WritePermit } from './write-values.js'

/** Per dataclass: whether one of its calculated attributes has a set function. */
const setters = new WeakMap<DataClassDef, boolean>()

export function hasSetters(dc: DataClassDef): boolean {
  let has = setters.get(dc)
  if (has === undefined) {
    has = dc.attributes.some((a) => a.kind === 'calculated' && a.set !== undefined)
    setters.set(dc, has)
  }
  return has
}

/**
 * `values` with each computed attribute that has a set function replaced by the assignments that
 * function returns for the value (converted to the attribute's type). The function sees the
 * version being updated as `this` (null for a create). A name the write gives itself keeps its
 * own value; two set functions giving one attribute two values conflict. What each function
 * assigns (and the write does not name itself) is asked of `permit`, its error naming the function.
 */
export function computedSets(
  dc: DataClassDef,
  values: Assignments,
  base: EntityRecord | null,
  where: Locate,
  permit: WritePermit | undefined,
): Assignments {
  const explicit: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  const sets: [CalculatedAttributeDef, unknown][] = []
  for (const name of Object.keys(values)) {
    const raw = values[name]
    if (raw === undefined) continue
    const attr = dc.attributesByName.get(name)
    if (attr?.kind === 'calculated' && attr.set && !isDeferred(raw)) sets.push([attr, raw])
    else explicit[name] = raw
  }
  if (sets.length === 0) return values
  const fromSets: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  const givenBy: Record<string, string> = Object.create(null) as Record<string, string>
  for (const [attr, raw] of sets) {
    const name = attr.name
    const out = callSet(dc, attr, setValue(dc, attr, raw, where), base)
    if (permit !== undefined) {
      const assigned = withoutExplicit(out, explicit)
      fromFunction(`the set function of ${dc.name}.${name}`, () =>
        permit(dc, assigned, base === null),
      )
    }
    for (const target of Object.keys(out)) {
      const v = out[target]
      if (v === undefined || Object.hasOwn(explicit, target)) continue
      const previous = givenBy[target]
      if (previous !== undefined && fromSets[target] !== v) {
        const type = dc.attributesByName.get(target)?.type ?? 'unknown'
        fail(
          'InvalidAttributeValue',
          [
            describeValue(v),
            target,
            type,
            dc.name,
            `the set functions of "${previous}" and "${name}" give it different values`,
          ],
          { details: { location: where(target), attribute: target } },
        )
      }
      fromSets[target] = v
      givenBy[target] = name
    }
  }
  // The write's own values, which a set function's never replace, come last.
  return { ...fromSets, ...explicit }
}

/** What a set function assigns that the write does not name itself (it would win). */
function withoutExplicit(
  out: Readonly<Record<string, unknown>>,
  explicit: Readonly<Record<string, unknown>>,
): Assignments {
  const names = Object.keys(out)
  if (!names.some((name) => Object.hasOwn(explicit, name))) return out
  const kept: Record<string, unknown> = {}
  for (const name of names) if (!Object.hasOwn(explicit, name)) kept[name] = out[name]
  return kept
}

/** A value written to a computed attribute, as its set function receives it. */
function setValue(
  dc: DataClassDef,
  attr: CalculatedAttributeDef,
  raw: unknown,
  where: Locate,
): StoredValue {
  try {
    // Dates are days, as a comparison on the attribute reads them.
    return coerceToType(attr.type, raw, true)
  } catch (e) {
    if (!(e instanceof CoercionError)) throw e
    return fail(
      'InvalidAttributeValue',
      [describeValue(raw), attr.name, attr.type, dc.name, e.message],
      { details: { location: where(attr.name), attribute: attr.name } },
    )
  }
}

function callSet(
  dc: DataClassDef,
  attr: CalculatedAttributeDef,
  value: StoredValue,
  base: EntityRecord | null,
): Readonly<Record<string, unknown>> {
  // Called ahead in steps, in the write's slices (sets-ahead.ts): its answer, or what it threw.
  const answer = setAnswerAhead(attr, base)
  if (answer !== undefined && 'error' in answer) throw answer.error
  const out: unknown =
    answer !== undefined
      ? answer.value
      : attr.set!.call(base && viewOf(base), value, setEvent(dc, attr, value))
  if (out === null || out === undefined) return {}
  if (typeof out !== 'object' || Array.isArray(out))
    fail('Internal', [
      `the set function of ${dc.name}.${attr.name} returned ${Array.isArray(out) ? 'an array' : typeof out}: expected an object of assignments, or nothing`,
    ])
  return out as Readonly<Record<string, unknown>>
}

/** The event a set function receives with `value`. */
export function setEvent(
  dc: DataClassDef,
  attr: CalculatedAttributeDef,
  value: StoredValue,
): ComputedSetEvent {
  return Object.freeze({
    attributeName: attr.name,
    dataClassName: dc.name,
    kind: 'set' as const,
    value,
  })
}

// A table stores each version as its Entity (orda/objects/data-class.ts), which is an EntityView; a bare
// record (a table no dataclass serves) reads its stored values.
function viewOf(record: EntityRecord): EntityView {
  if (typeof (record as Partial<EntityView>).get === 'function')
    return record as unknown as EntityView
  return {
    get: (name) => record.values[name] ?? null,
    getKey: () => record.key,
    getStamp: () => record.stamp,
    getTimestamp: () => record.timestamp,
  }
}

/** `{"__deferred": {…}}`, the form a read gives relations and computed relation values. */
export function isDeferred(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && '__deferred' in raw
}
