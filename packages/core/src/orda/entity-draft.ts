/**
 * @module An entity being edited: the values to write over a base version (or over nothing, for a
 * new entity), saved in one step. Entities themselves are frozen versions shared by every reader; a
 * draft is the one mutable thing, and it belongs to its caller.
 *
 * `EntityDraft<M, N>` is a draft of dataclass `N` of a typed model `M`: `set` takes only the
 * attributes a write may name, with their types (see attribute-types.ts).
 */
import type { KeyValue } from '../store/entity-record.js'
import type {
  AttributeName,
  DataClassName,
  ModelTypes,
  UntypedModel,
} from '../schema/typed-model.js'
import type { AttributeValue, WritableName, WriteValue, WriteValues } from './attribute-types.js'
import type { DataClass } from './data-class.js'
import type { Entity } from './entity.js'
import type { WriteCheck } from '../txn/transaction.js'
import { afterSave, beforeSave, constructed, eventsOf, touched } from './entity-events.js'
import { afterCommit, createEntity, dropEntity, updateEntity } from './writes.js'

/** What a draft's `get(K)` returns: the value set for the next save, else the base's value. */
export type DraftValue<
  M extends ModelTypes,
  N extends DataClassName<M>,
  K extends AttributeName<M, N>,
> = AttributeValue<M, N, K> | (K extends WritableName<M, N> ? WriteValue<M, M[N][K]> : never)

export class EntityDraft<
  M extends ModelTypes = UntypedModel,
  N extends DataClassName<M> = DataClassName<M>,
> {
  readonly dataClass: DataClass<M, N>
  #base: Entity<M, N> | null
  #changes: Record<string, unknown> = Object.create(null) as Record<string, unknown>

  /**
   * @internal Made by `dataClass.new()` and `entity.edit()`. A new entity's `constructor` event
   * runs first; then each value given is set (with its `touched` events).
   */
  constructor(dataClass: DataClass<M, N>, base: Entity<M, N> | null, values?: WriteValues<M, N>) {
    this.dataClass = dataClass
    this.#base = base
    const events = eventsOf(this.#dc)
    if (events && base === null) constructed(events, this)
    const given = values as Readonly<Record<string, unknown>> | undefined
    if (given)
      for (const name of Object.keys(given))
        this.set(name as WritableName<M, N>, given[name] as WriteValue<M, M[N][WritableName<M, N>]>)
  }

  // The dataclass as the engine's functions take it: a model's types only narrow what users see.
  get #dc(): DataClass {
    return this.dataClass as unknown as DataClass
  }

  /** True until the first successful save of a new entity. */
  get isNew(): boolean {
    return this.#base === null
  }

  /** The version this draft edits (the last one it saved), or null for a new entity. */
  get base(): Entity<M, N> | null {
    return this.#base
  }

  /** The key of the entity, once it has one (after the first save of a new entity). */
  get key(): KeyValue | undefined {
    return this.#base?.key
  }

  /** Sets an attribute for the next save (checked then). A relation takes an Entity or a key. */
  set<K extends WritableName<M, N>>(name: K, value: WriteValue<M, M[N][K]>): this {
    const events = eventsOf(this.#dc)
    // `touched` only for a value that changes (4D: "an attribute value changes"). Compared as the
    // engine reads it: the writer may be one that may not read it (its write is checked at save).
    const changes = events !== undefined && !Object.is(this.#current(name as string), value)
    this.#changes[name] = value
    if (changes) touched(events!, this.#dc, this, name as string)
    return this
  }

  /** The value as this draft would save it: the pending one if set, else the base's. */
  get<K extends AttributeName<M, N>>(name: K): DraftValue<M, N, K> {
    if (name in this.#changes) return this.#changes[name] as DraftValue<M, N, K>
    return this.#base ? this.#base.get(name) : (null as DraftValue<M, N, K>)
  }

  // The value as this draft would save it, read by the engine (no permission asked).
  #current(name: string): unknown {
    if (name in this.#changes) return this.#changes[name]
    const attr = this.#dc.def.attributesByName.get(name)
    if (!this.#base || !attr) return this.#base ? this.get(name as AttributeName<M, N>) : null
    return (this.#base as unknown as Entity).valueOf(attr)
  }

  /** The attributes set since the last save. */
  get changes(): WriteValues<M, N> {
    return { ...this.#changes } as WriteValues<M, N>
  }

  /**
   * Saves the pending values: creates the entity, or writes a new version of the base if the stored
   * stamp is still the base's (else StampChanged, 1263, and nothing is written). Returns the saved
   * version; the draft then edits that one. Inside `ds.transaction(fn)` the save is staged.
   */
  save(): Entity<M, N> {
    return this.saveChecked(this.#base ? { stamp: this.#base.stamp } : undefined)
  }

  /**
   * @internal `save` with the check a caller asks (`dc.update(key, values, { stamp })` checks the
   * stamp it was given, or none). With entity events: `validateSave` and `saving` first (they may
   * refuse, or set values), `afterSave` once the save has committed.
   */
  saveChecked(check: WriteCheck | undefined): Entity<M, N> {
    const events = eventsOf(this.#dc)
    if (events) beforeSave(events, this.#dc, this, () => Object.keys(this.#changes))
    const written = Object.keys(this.#changes)
    const saved = (this.#base
      ? updateEntity(this.#dc, this.#base.key, this.#changes, check, false)
      : createEntity(this.#dc, this.#changes, false)) as unknown as Entity<M, N>
    this.#base = saved
    this.#changes = Object.create(null) as Record<string, unknown>
    if (events) {
      const entity = saved as unknown as Entity
      afterCommit(this.#dc.datastore, () => afterSave(events, this.#dc, entity, written))
    }
    return saved
  }

  /** Drops the base entity if its stamp is unchanged (StampChanged, 1263, otherwise). */
  drop(): void {
    if (!this.#base) throw new Error('drop: this entity was never saved')
    dropEntity(this.#dc, this.#base.key, { stamp: this.#base.stamp })
  }
}
