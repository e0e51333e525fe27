/**
 * @module A cursor on the vectors of one attribute, by row id: where a row's floats are, found
 * without making a Vector (a load's rows keep theirs in one Float32Array a batch, base-rows.ts; a
 * written row holds its Vector). A scan over a million vectors made two objects a row before.
 */
import { Vector, type FloatsAt } from '../values/vector.js'
import { BaseRows } from './base-rows.js'
import type { Slot } from './slot-array.js'

const NONE = new Float32Array(0)

export class VectorCursor implements FloatsAt {
  data: Float32Array = NONE
  offset = 0
  length = 0
  readonly #slot: (rowId: number) => Slot
  readonly #position: number
  readonly #name: string

  constructor(slot: (rowId: number) => Slot, position: number, name: string) {
    this.#slot = slot
    this.#position = position
    this.#name = name
  }

  /** Points the cursor at row `rowId`'s vector; false when the row is deleted or has none. */
  at(rowId: number): boolean {
    const slot = this.#slot(rowId)
    if (slot === undefined) return false
    if (slot instanceof BaseRows) return slot.locateVector(rowId, this.#position, this)
    const v = slot.values[this.#name]
    if (!(v instanceof Vector)) return false
    Vector.locate(v, this)
    return true
  }
}
