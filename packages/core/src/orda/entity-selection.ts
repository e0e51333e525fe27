/**
 * @module An ordered list of entities of one dataclass, held as row ids. A selection is a snapshot
 * of membership, not of values: reading an entity gives its current version, and an entity deleted
 * since the selection was made reads as null (4D shows it as `{"__STAMP": 0}` in entity sets).
 */
import type { DataClass } from './data-class.js'
import type { Entity } from './entity.js'
import type { Ordering } from '../query/order.js'
import { orderSelection } from './queries.js'
import { dropEntities } from './writes.js'

export class EntitySelection implements Iterable<Entity | null> {
  readonly dataClass: DataClass
  readonly #rows: readonly number[]
  readonly #ordering: Ordering | undefined
  // The rows put in order so far: a prefix of the final order, complete once its length is #rows'.
  #ordered: readonly number[] | undefined

  /**
   * @internal Made by DataClass and the query engine; `rowIds` must not be modified afterwards. With
   * an `ordering`, `rowIds` may be in any order: the selection orders them on demand.
   */
  constructor(dataClass: DataClass, rowIds: readonly number[], ordering?: Ordering) {
    this.dataClass = dataClass
    this.#rows = rowIds
    // Zero or one row is in order whatever the ordering.
    this.#ordering = rowIds.length > 1 ? ordering : undefined
    this.#ordered = this.#ordering ? undefined : rowIds
  }

  /** Number of entities, deleted ones included (4D counts them in `__COUNT`). */
  get length(): number {
    return this.#rows.length
  }

  /** @internal The row ids, in order (orders them all if needed). */
  get rowIds(): readonly number[] {
    return this.#prefix(this.#rows.length)
  }

  /** @internal The row ids in no particular order (no sorting). */
  get unorderedRowIds(): readonly number[] {
    return this.#rows
  }

  // The first `count` rows in order; asks for at least twice the previous prefix so that reading a
  // selection page by page costs O(n log n) in all, not a selection per page.
  #prefix(count: number): readonly number[] {
    const have = this.#ordered
    if (have && (have.length >= count || have.length === this.#rows.length)) return have
    const want = Math.min(this.#rows.length, Math.max(count, 2 * (have?.length ?? 0)))
    this.#ordered = this.#ordering!.take(this.#rows, want)
    return this.#ordered
  }

  /** The entity at `index`, or null if it was deleted; undefined past the end. */
  at(index: number): Entity | null | undefined {
    if (!(index >= 0 && index < this.#rows.length)) return undefined
    return this.dataClass.entityAt(this.#prefix(index + 1)[index]!)
  }

  /**
   * The part starting at `skip` with at most `top` entities (the `$skip`/`$top` window).
   * A `skip` past the end gives an empty selection. Only the rows up to `skip + top` are ordered.
   */
  slice(skip = 0, top = Infinity): EntitySelection {
    if (skip === 0 && top >= this.#rows.length && !this.#ordering) return this
    const end = Math.min(this.#rows.length, skip + top)
    if (skip >= end) return new EntitySelection(this.dataClass, [])
    return new EntitySelection(this.dataClass, this.#prefix(end).slice(skip, end))
  }

  *[Symbol.iterator](): Iterator<Entity | null> {
    for (const rowId of this.rowIds) yield this.dataClass.entityAt(rowId)
  }

  /**
   * This selection ordered by `"attr [asc|desc], …"` (relation paths allowed); nulls first.
   * Only as many rows as are read get sorted.
   */
  orderBy(orderBy: string): EntitySelection {
    return orderSelection(this, orderBy)
  }

  /**
   * Deletes every entity of the selection that still exists, in one transaction (or as part of the
   * open `ds.transaction(fn)`); returns how many were deleted. The selection keeps its members,
   * which now read as null.
   */
  drop(): number {
    return dropEntities(this.dataClass, this)
  }

  /** The live entities, deleted ones left out. */
  toArray(): Entity[] {
    const out: Entity[] = []
    for (const e of this) if (e) out.push(e)
    return out
  }
}
