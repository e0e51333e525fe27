/**
 * @module An entity being edited: the values to write over a base version (or over nothing, for a
 * new entity), saved in one step. Entities themselves are frozen versions shared by every reader; a
 * draft is the one mutable thing, and it belongs to its caller.
 */
import type { KeyValue } from '../store/entity-record.js'
import type { DataClass } from './data-class.js'
import type { Entity } from './entity.js'
import { createEntity, dropEntity, updateEntity } from './writes.js'

export class EntityDraft {
  readonly dataClass: DataClass
  #base: Entity | null
  #changes: Record<string, unknown> = Object.create(null) as Record<string, unknown>

  /** @internal Made by `dataClass.new()` and `entity.edit()`. */
  constructor(
    dataClass: DataClass,
    base: Entity | null,
    values?: Readonly<Record<string, unknown>>,
  ) {
    this.dataClass = dataClass
    this.#base = base
    if (values) for (const name of Object.keys(values)) this.set(name, values[name])
  }

  /** True until the first successful save of a new entity. */
  get isNew(): boolean {
    return this.#base === null
  }

  /** The version this draft edits (the last one it saved), or null for a new entity. */
  get base(): Entity | null {
    return this.#base
  }

  /** The key of the entity, once it has one (after the first save of a new entity). */
  get key(): KeyValue | undefined {
    return this.#base?.key
  }

  /** Sets an attribute for the next save (checked then). A relation takes an Entity or a key. */
  set(name: string, value: unknown): this {
    this.#changes[name] = value
    return this
  }

  /** The value as this draft would save it: the pending one if set, else the base's. */
  get(name: string): unknown {
    if (name in this.#changes) return this.#changes[name]
    return this.#base ? this.#base.get(name) : null
  }

  /** The attributes set since the last save. */
  get changes(): Readonly<Record<string, unknown>> {
    return { ...this.#changes }
  }

  /**
   * Saves the pending values: creates the entity, or writes a new version of the base if the stored
   * stamp is still the base's (else StampChanged, 1263, and nothing is written). Returns the saved
   * version; the draft then edits that one. Inside `ds.transaction(fn)` the save is staged.
   */
  save(): Entity {
    const saved = this.#base
      ? updateEntity(this.dataClass, this.#base.key, this.#changes, { stamp: this.#base.stamp })
      : createEntity(this.dataClass, this.#changes)
    this.#base = saved
    this.#changes = Object.create(null) as Record<string, unknown>
    return saved
  }

  /** Drops the base entity if its stamp is unchanged (StampChanged, 1263, otherwise). */
  drop(): void {
    if (!this.#base) throw new Error('drop: this entity was never saved')
    dropEntity(this.dataClass, this.#base.key, { stamp: this.#base.stamp })
  }
}
