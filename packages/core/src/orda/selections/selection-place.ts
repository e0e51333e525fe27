/**
 * @module An entity read from a selection that remembers it: 4D's `entity.getSelection()`,
 * `indexOf()`, `next()`, `previous()`, `first()` and `last()`.
 *
 * The stored Entity objects cannot hold it: one object is every reader's version of an entity
 * (a table keeps each version as its Entity, reading one allocates nothing, see entity.ts), and
 * a field for it on each would cost every stored row its memory. The same version reached through
 * two selections must also answer each one's. So a selection hands out a copy of the version (an
 * Entity of the same shape, via `clone()`) registered here with its selection and position, and
 * only through the members that ask for it: `selection.first()`, `last()` and `memberAt(i)`,
 * then the copy's own `next()`, `previous()`, `first()` and `last()`. `at(i)`, iteration,
 * `members()` and `toArray()` hand out the stored versions, which remember nothing (4D's entity
 * read on its own, as `dataClass.get()` gives it): the engine's paths allocate nothing for this.
 *
 * The map is weak: a copy dropped by its reader takes its place with it.
 *
 * Types only from the public classes: this stays out of orda's run-time import circle.
 */
import { fail } from '../../errors/datastore-error.js'
import type { Entity } from '../objects/entity.js'
import type { EntitySelection } from '../objects/entity-selection.js'

interface Place {
  readonly selection: EntitySelection
  readonly position: number
}

const places = new WeakMap<Entity, Place>()

/**
 * `entity` (read at `position` of `selection`) as a copy that remembers them; null and undefined
 * (a deleted member, past the end) as they are.
 */
export function placed<E extends Entity | null | undefined>(
  entity: E,
  selection: EntitySelection,
  position: number,
): E {
  if (!entity) return entity
  const copy = entity.clone()
  places.set(copy, { selection, position })
  return copy as E
}

/** The selection `entity` was read from (4D's `getSelection()`), or null. */
export function selectionOf(entity: Entity): EntitySelection | null {
  return places.get(entity)?.selection ?? null
}

/**
 * 4D's `indexOf(entitySelection?)`: the position of `entity` in its own selection, or in `other`
 * (its first, for a selection that holds it twice, unless it was read from there); -1 when it is
 * not in it. `other` null, or of another dataclass, is an error.
 */
export function positionOf(entity: Entity, other?: EntitySelection | null): number {
  const place = places.get(entity)
  if (other === undefined) return place ? place.position : -1
  if (other === null) return fail('InvalidParameter', ['indexOf', 'null', 'an entity selection'])
  if (other.dataClass !== entity.dataClass)
    fail('IncompatibleDataClass', [other.dataClass.name, entity.dataClass.name])
  if (place?.selection === other) return place.position
  return other.rowIds.indexOf(entity.rowId)
}

/**
 * The next (`step` 1) or previous (-1) live member of the selection `entity` was read from, placed
 * there (4D's `next()`, `previous()`: a member deleted since is passed over); null at the end, or
 * when it was read from none.
 */
export function stepFrom(entity: Entity, step: 1 | -1): Entity | null {
  const place = places.get(entity)
  if (!place) return null
  const { selection } = place
  for (let i = place.position + step; i >= 0 && i < selection.length; i += step) {
    const member = selection.memberAt(i)
    if (member) return member
  }
  return null
}

/** The first or last member of the selection `entity` was read from (4D's `first()`, `last()`), or null. */
export function endOf(entity: Entity, end: 'first' | 'last'): Entity | null {
  const selection = places.get(entity)?.selection
  return selection ? selection[end]() : null
}

/** `to` (a later version of `from`) placed where `from` was, if it was (a reload keeps its place). */
export function samePlace<E extends Entity>(from: Entity, to: E): E {
  const place = places.get(from)
  return place ? placed(to, place.selection, place.position) : to
}
