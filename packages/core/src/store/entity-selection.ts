/**
 * @module An ordered list of entities of one dataclass, held as row ids. A selection is a snapshot
 * of membership, not of values: reading an entity gives its current version, and an entity deleted
 * since the selection was made reads as null (4D shows it as `{"__STAMP": 0}` in entity sets).
 */
import type { DataClass } from './data-class.js'
import type { Entity } from './entity.js'

export class EntitySelection implements Iterable<Entity | null> {
  readonly dataClass: DataClass
  readonly #rowIds: readonly number[]

  /** @internal Made by DataClass and the query engine; `rowIds` must not be modified afterwards. */
  constructor(dataClass: DataClass, rowIds: readonly number[]) {
    this.dataClass = dataClass
    this.#rowIds = rowIds
  }

  /** Number of entities, deleted ones included (4D counts them in `__COUNT`). */
  get length(): number {
    return this.#rowIds.length
  }

  /** @internal The row ids, in order. */
  get rowIds(): readonly number[] {
    return this.#rowIds
  }

  /** The entity at `index`, or null if it was deleted; undefined past the end. */
  at(index: number): Entity | null | undefined {
    const rowId = this.#rowIds[index]
    return rowId === undefined ? undefined : this.dataClass.entityAt(rowId)
  }

  /**
   * The part starting at `skip` with at most `top` entities (the `$skip`/`$top` window).
   * A `skip` past the end gives an empty selection.
   */
  slice(skip = 0, top = Infinity): EntitySelection {
    if (skip === 0 && top >= this.#rowIds.length) return this
    return new EntitySelection(this.dataClass, this.#rowIds.slice(skip, skip + top))
  }

  *[Symbol.iterator](): Iterator<Entity | null> {
    for (const rowId of this.#rowIds) yield this.dataClass.entityAt(rowId)
  }

  /** The live entities, deleted ones left out. */
  toArray(): Entity[] {
    const out: Entity[] = []
    for (const e of this) if (e) out.push(e)
    return out
  }
}
