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
 * It names the entities and selections by what it reads of them (PlacedEntity, PlaceSelection),
 * which Entity and EntitySelection have, not by their classes, which place through this file: they
 * cast what they get back to the type they put in.
 */
import { fail } from '../../errors/datastore-error.js'
import type { RowIds } from '../../sets/row-ids.js'

/** An entity as a place reads it: its dataclass and row, and a copy of it to register. */
export interface PlacedEntity {
  readonly dataClass: { readonly name: string }
  readonly rowId: number
  clone(): PlacedEntity
}

/** A selection as a place reads it: its dataclass, rows and members. */
export interface PlaceSelection {
  readonly dataClass: { readonly name: string }
  readonly rowIds: RowIds
  readonly length: number
  memberAt(position: number): PlacedEntity | null | undefined
  first(): PlacedEntity | null
  last(): PlacedEntity | null
}

interface Place {
  readonly selection: PlaceSelection
  readonly position: number
}

const places = new WeakMap<PlacedEntity, Place>()

/**
 * `entity` (read at `position` of `selection`) as a copy that remembers them; null and undefined
 * (a deleted member, past the end) as they are.
 */
export function placed<E extends PlacedEntity | null | undefined>(
  entity: E,
  selection: PlaceSelection,
  position: number,
): E {
  if (!entity) return entity
  const copy = entity.clone()
  places.set(copy, { selection, position })
  return copy as E
}

/** The selection `entity` was read from (4D's `getSelection()`), or null. */
export function selectionOf(entity: PlacedEntity): PlaceSelection | null {
  return places.get(entity)?.selection ?? null
}

/**
 * 4D's `indexOf(entitySelection?)`: the position of `entity` in its own selection, or in `other`
 * (its first, for a selection that holds it twice, unless it was read from there); -1 when it is
 * not in it. `other` null, or of another dataclass, is an error.
 */
export function positionOf(entity: PlacedEntity, other?: PlaceSelection | null): number {
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
export function stepFrom(entity: PlacedEntity, step: 1 | -1): PlacedEntity | null {
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
export function endOf(entity: PlacedEntity, end: 'first' | 'last'): PlacedEntity | null {
  const selection = places.get(entity)?.selection
  return selection ? selection[end]() : null
}

/** `to` (a later version of `from`) placed where `from` was, if it was (a reload keeps its place). */
export function samePlace<E extends PlacedEntity>(from: PlacedEntity, to: E): E {
  const place = places.get(from)
  return place ? placed(to, place.selection, place.position) : to
}
