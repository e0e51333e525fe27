/**
 * @module An entity being edited: the values to write over a base version (or over nothing, for a
 * new entity), saved in one step. Entities themselves are frozen versions shared by every reader; a
 * draft is the one mutable thing, and it belongs to its caller. It is what 4D calls an entity
 * between `new()` or a change and `save()`: it has 4D's Entity members that concern one being
 * edited (`save`, `drop`, `touched`, `fromObject`, `reload`…), docs/orda.md maps them.
 *
 * `EntityDraft<M, N>` is a draft of dataclass `N` of a typed model `M`: `set` takes only the
 * attributes a write may name, with their types (see attribute-types.ts).
 */
import { OBJECT_KIND } from '../kinds/object-kind.js'
import type { KeyValue } from '../../store/entity-record.js'
import type { StoredValue } from '../../values/coerce.js'
import type {
  AttributeName,
  DataClassName,
  ModelTypes,
  UntypedModel,
} from '../../schema/typed-model.js'
import type {
  AttributeValue,
  WritableName,
  WriteValue,
  WriteValues,
  PropertyName,
} from './attribute-types.js'
import type { DataClass } from './data-class.js'
import type { Entity } from './entity.js'
import type { Assignments, WriteCheck } from '../../txn/transaction.js'
import {
  attemptWrite,
  SAVE_STATUS,
  type SaveResult,
  type WriteResult,
} from '../../txn/save-status.js'
import { fail } from '../../errors/datastore-error.js'
import {
  afterSave,
  beforeSave,
  beforeSaveSteps,
  constructed,
  constructedSteps,
  eventsOf,
  touched,
  touchedSteps,
} from '../writes/entity-events.js'
import type { DataClassEvents } from '../../functions/registry.js'
import type { Work } from '../../query/slices.js'
import { createEntity, currentVersion, dropEntity, updateEntity } from '../writes/writes.js'
import { afterCommit } from '../writes/after-commit.js'
import { openTransaction } from '../calls/owners.js'
import { attemptWriteSteps } from '../writes/write-steps.js'
import { settersAhead } from '../writes/setter-steps.js'
import {
  differences,
  draftReader,
  draftSlots,
  slotsOf,
  fillerValues,
  touchedNames,
  type AttributeDifference,
  type SlotReader,
  type EntityObject,
  type ToObjectOptions,
} from '../members/entity-objects.js'
import { toObject, type ObjectFilter } from '../selections/selection-projections.js'
import { GONE, savePlan, type SavePlan } from './save-plan.js'
import type { WrittenEntity } from '../writes/written-class.js'

/** What a draft's `get(K)` returns: the value set for the next save, else the base's value. */
export type DraftValue<
  M extends ModelTypes,
  N extends DataClassName<M>,
  K extends AttributeName<M, N>,
> = AttributeValue<M, N, K> | (K extends WritableName<M, N> ? WriteValue<M, M[N][K]> : never)

/** `dataClass.draft(…)`'s: the version edited (null: new), its values, its events `later`. */
export type DraftArgs<M extends ModelTypes, N extends DataClassName<M>> = [
  base: Entity<M, N> | null,
  values?: WriteValues<M, N>,
  later?: boolean,
]

/** `save()`'s option: 4D's `dk auto merge`. */
export interface SaveOptions {
  /**
   * Save over a version someone else saved since this draft's base was read, when the two saves
   * changed different attributes (4D's `dk auto merge`); the result then says `autoMerged`.
   * @default false
   */
  readonly autoMerge?: boolean
}

/** `drop()`'s option: 4D's `dk force drop if stamp changed`. */
export interface DropOptions {
  /** Drop whatever version is current, not only the one read. @default false */
  readonly force?: boolean
}

/**
 * What `reload()` answers: `{ success: true, entity }` with the current version (a draft then edits
 * it, its pending values dropped), or status 5 when the entity no longer exists.
 */
export type ReloadResult<E> =
  { readonly success: true; readonly entity: E } | (SaveResult & { readonly status: 5 })

/**
 * A draft's members, without its attribute properties: what every dataclass's drafts share.
 * `EntityDraft` (below) is this with the dataclass's attributes as properties.
 */
export class EntityDraftCore<
  M extends ModelTypes = UntypedModel,
  N extends DataClassName<M> = DataClassName<M>,
> {
  readonly dataClass: DataClass<M, N>
  #base: Entity<M, N> | null
  #changes: Record<string, unknown> = Object.create(null) as Record<string, unknown>

  /**
   * @internal Made by `dataClass.new()` and `entity.edit()`. A new entity's `constructor` event
   * runs first; then each value given is set (with its `touched` events). Made `later` (a write
   * run in slices: write-steps.ts), it runs neither: `madeSteps(values)` runs them in steps.
   */
  constructor(dataClass: DataClass<M, N>, ...[base, values, later]: DraftArgs<M, N>) {
    this.dataClass = dataClass
    this.#base = base
    if (later === true) return
    const events = eventsOf(this.#dc)
    if (events && base === null) constructed(events, this)
    const given = values as Readonly<Record<string, unknown>> | undefined
    if (given)
      for (const name of Object.keys(given))
        this.set(name as WritableName<M, N>, given[name] as WriteValue<M, M[N][WritableName<M, N>]>)
  }

  /**
   * @internal What a draft made `later` was left: a new entity's `constructor` event, then each
   * value set with its `touched` events, as work in steps (events compiled from 4D stop).
   */
  *madeSteps(values?: Assignments): Work<this> {
    const events = eventsOf(this.#dc)
    if (events && this.#base === null) yield* constructedSteps(events, this)
    if (values)
      for (const name of Object.keys(values))
        yield* this.setSteps(name as never, values[name] as never)
    return this
  }

  // The dataclass as the engine's functions take it: a model's types only narrow what users see.
  get #dc(): DataClass {
    return this.dataClass as unknown as DataClass
  }

  /** @internal What this object is, for the files that may not import its class (kinds/object-kind.ts). */
  get [OBJECT_KIND](): 'draft' {
    return 'draft'
  }

  /** 4D's `isNew()`: true until the first successful save of a new entity (`dataClass.new()`). */
  isNew(): boolean {
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
    const events = this.#assign(name as string, value)
    if (events !== undefined) touched(events, this.#dc, this, name as string)
    return this
  }

  /** @internal `set` as work in steps (4D code's `$e.name:=…` in slices): `touched` in steps. */
  *setSteps<K extends WritableName<M, N>>(name: K, value: WriteValue<M, M[N][K]>): Work<this> {
    const events = this.#assign(name as string, value)
    if (events !== undefined) yield* touchedSteps(events, this.#dc, this, name as string)
    return this
  }

  // Sets `name`; the events to run `touched` with, for a value that changes (4D: "an attribute
  // value changes"), compared as the engine reads it (the writer may not read it: checked at save).
  #assign(name: string, value: unknown): DataClassEvents | undefined {
    const events = eventsOf(this.#dc)
    const changes = events !== undefined && !Object.is(this.#current(name), value)
    this.#changes[name] = value
    return changes ? events : undefined
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

  // ---- 4D's Entity members ----

  /** 4D's `getDataClass()` (also `dataClass`). */
  getDataClass(): DataClass<M, N> {
    return this.dataClass
  }

  /**
   * 4D's `getKey()`: the primary key once saved (a new entity's given key before), else null;
   * `{ asString: true }` (4D's `dk key as string`) gives it as text.
   */
  getKey(options: { readonly asString: true }): string | null
  getKey(options?: { readonly asString?: boolean }): KeyValue | null
  getKey(options?: { readonly asString?: boolean }): KeyValue | string | null {
    const key = this.#base?.key ?? (this.#changes[this.#dc.def.key.name] as KeyValue | undefined)
    if (key === undefined || key === null) return null
    return options?.asString === true ? String(key) : key
  }

  /** 4D's `getStamp()`: the stamp of the version this draft edits, 0 for a new entity. */
  getStamp(): number {
    return this.#base?.stamp ?? 0
  }

  /** 4D's `getRemoteContextAttributes()`: `''`, there is no client/server context in one process. */
  getRemoteContextAttributes(): string {
    return ''
  }

  /** 4D's `touched()`: whether an attribute was set since the draft was made or last saved. */
  touched(): boolean {
    for (const _ in this.#changes) return true
    return false
  }

  /**
   * 4D's `touchedAttributes()`: the attributes set since the draft was made or last saved (set to
   * the same value included, as 4D), a relation with its key attribute.
   */
  touchedAttributes(): AttributeName<M, N>[] {
    return touchedNames(this.#dc, Object.keys(this.#changes)) as AttributeName<M, N>[]
  }

  /**
   * 4D's `clone()`: another draft of the same version with the same pending values, changed
   * separately. 9160 for a new entity, which 4D does not clone either.
   */
  clone(): EntityDraft<M, N> {
    if (!this.#base) return fail('EntityNeverSaved', ['clone', this.dataClass.name])
    const copy = this.dataClass.draft(this.#base)
    Object.assign((copy as EntityDraftCore<M, N>).#changes, this.#changes)
    return copy
  }

  /**
   * 4D's `reload()`: the draft edits the current version from now on, its pending values dropped;
   * answers it (`{ success: true, entity }`), or status 5 when the entity no longer exists (or
   * never did: a new entity).
   */
  reload(): ReloadResult<Entity<M, N>> {
    const current = this.#base && this.dataClass.get(this.#base.key)
    if (!current) return GONE as ReloadResult<Entity<M, N>>
    this.#base = current
    this.#changes = Object.create(null) as Record<string, unknown>
    return { success: true, entity: current }
  }

  /**
   * 4D's `toObject(filter?, options?)` of the entity as this draft would save it (see
   * `Entity.toObject`): a relation set by key reads as the entity it names. The base's values are
   * read as `get` reads them (what the acting session may not read is refused).
   */
  toObject(): EntityObject<M, N>
  toObject(filter: ObjectFilter, options?: ToObjectOptions): Partial<EntityObject<M, N>>
  toObject(filter?: ObjectFilter, options?: ToObjectOptions): Record<string, unknown> {
    const reader = draftReader(
      this.#dc,
      (name) => this.get(name as AttributeName<M, N>),
      () => this.getKey(),
      () => this.getStamp(),
    )
    return toObject(reader, filter, options)
  }

  /**
   * 4D's `fromObject(filler)`: sets each property of `filler` named as an attribute (see
   * entity-objects.ts `fillerValues`: values converted where they can be, relations by key,
   * `{ __KEY }` or Entity, the primary key for a new entity only); returns this draft.
   *
   * @example ds.Employee.new().fromObject({ lastName: 'Smith', employer: { __KEY: 20 } }).save()
   */
  fromObject(filler: Readonly<Record<string, unknown>>): this {
    for (const [name, value] of fillerValues(this.#dc, this.#base === null, filler))
      this.set(name as WritableName<M, N>, value as WriteValue<M, M[N][WritableName<M, N>]>)
    return this
  }

  /**
   * 4D's `diff(entityToCompare, attributesToCompare?)`: the attributes whose values differ between
   * this draft (as it would save) and `other`, an Entity or a draft of the same dataclass.
   */
  diff(
    other: Entity<M, N> | EntityDraft<M, N>,
    attributesToCompare?: readonly string[],
  ): AttributeDifference<AttributeName<M, N>>[] {
    const theirs = slotsOf(other as unknown as Entity | EntityDraft)
    return differences(this.slots(), theirs, attributesToCompare) as AttributeDifference<
      AttributeName<M, N>
    >[]
  }

  /** @internal What this draft would save, slot by slot (see `diff`). */
  slots(): SlotReader {
    return draftSlots(this.#dc, this.#base as unknown as Entity | null, this.#changes)
  }

  /**
   * @internal The version a save would make, not stored (row -1): each storage attribute as
   * `slots()` reads it, over the base's key, stamp and time; a new entity has the key it was given
   * (null when the save gives it), stamp 0 and time 0. What a function returns unsaved is written
   * from it (the REST result of `ds.Car.new()`, of an entity changed and not saved); the base
   * itself when nothing is pending.
   */
  unsavedVersion(): Entity<M, N> {
    if (this.#base !== null && !this.touched()) return this.#base
    const slots = this.slots()
    const values = Object.create(null) as Record<string, StoredValue>
    for (const attr of this.#dc.def.attributes)
      if (attr.kind === 'storage') values[attr.name] = slots.slot(attr.name) as StoredValue
    const base = this.#base
    const key = base?.key ?? (this.getKey() as KeyValue)
    return this.dataClass.makeEntity(-1, key, base?.stamp ?? 0, base?.timestamp ?? 0, values)
  }

  // ---- saving and dropping ----

  /**
   * 4D's `save(mode?)`: saves the pending values and answers 4D's result object instead of
   * throwing for what the data refused: `{ success: true }`, or `{ success: false, status,
   * statusText }`: 1 not permitted, 2 saved by someone else since (the stamp changed), 3 locked by
   * another owner (with `lockKind`, `lockKindText`, `lockInfo`), 4 a serious error (a key or
   * unique value taken, with `errors`), 5 deleted since, 6 `{ autoMerge: true }` could not merge,
   * 7/8 refused by a validate event. The calling code's own mistakes (an unknown or read-only
   * attribute, a value of the wrong type) are still thrown. An entity that was saved and has no
   * pending value is not saved again (4D: "the function does nothing"). The saved version is
   * `base` afterwards. `saveOrFail()` saves the throwing way.
   *
   * @example const r = ds.Employee.get(3)!.edit({ salary: 5200 }).save(); if (!r.success) console.log(r.statusText)
   */
  save(options: SaveOptions = {}): WriteResult {
    const plan = this.#plan(options)
    if (plan.answer !== undefined) return plan.answer
    const result = attemptWrite(() => this.saveChecked(plan.check))
    return result.success ? plan.success : result
  }

  /**
   * `save(options)` as work in steps (`saveInSteps` does the same for a dataclass's values), for
   * a caller that runs in slices (4D code's `$e.save()` in a REST call): the events before the
   * write run in steps where they can (code compiled from 4D), then the write in one piece, its
   * stamp checked then (another write of the entity meanwhile: status 2). Inside a transaction
   * that ends within the caller's step (`ds.transaction(fn)`), the plain save; inside one open
   * across awaits (`startTransaction()`), in steps as well (write-steps.ts).
   */
  *saveSteps(options: SaveOptions = {}): Work<WriteResult> {
    const plan = this.#plan(options)
    if (plan.answer !== undefined) return plan.answer
    if (openTransaction(this.#dc.datastore)?.acrossAwaits === false) return this.save(options)
    const result = yield* attemptWriteSteps(this.prepareSave(plan.check))
    return result.success ? plan.success : result
  }

  #plan(options: SaveOptions): SavePlan {
    const base = this.#base as WrittenEntity | null
    const written = () => this.touchedAttributes()
    return savePlan(this.#dc, base, this.touched(), written, options.autoMerge === true)
  }

  /**
   * Saves the pending values the throwing way: creates the entity, or writes a new version of the
   * base if the stored stamp is still the base's (else StampChanged, 1263, and nothing is written).
   * Returns the saved version; the draft then edits that one. Inside `ds.transaction(fn)` the save
   * is staged.
   *
   * @throws DatastoreError StampChanged (1263), EntityLocked (9070), EntityNotFound (1542), and
   *   what `dataClass.create` and `update` throw.
   */
  saveOrFail(): Entity<M, N> {
    return this.saveChecked(this.#base ? { stamp: this.#base.stamp } : undefined)
  }

  /**
   * @internal `saveOrFail` with the check a caller asks (`dc.update(key, values, { stamp })` checks
   * the stamp it was given, or none). With entity events: `validateSave` and `saving` first (they
   * may refuse, or set values), `afterSave` once the save has committed.
   */
  saveChecked(check: WriteCheck | undefined): Entity<M, N> {
    const events = eventsOf(this.#dc)
    if (events) beforeSave(events, this.#dc, this, () => Object.keys(this.#changes))
    return this.#write(check, events)
  }

  /**
   * @internal `saveChecked` in two parts: its events, then the setters of the computed attributes
   * it sets (setter-steps.ts), as work in steps (each stops where its code does), which gives the
   * write (and its `afterSave`), to run once they are done (writes.ts `saveSteps`).
   */
  *prepareSave(check: WriteCheck | undefined): Work<() => Entity<M, N>> {
    const events = eventsOf(this.#dc)
    if (events) yield* beforeSaveSteps(events, this.#dc, this, () => Object.keys(this.#changes))
    const write = () => this.#write(check, events)
    return yield* settersAhead(this.#dc, this.#changes, this.#base, write)
  }

  // The save itself, its events before it run; `afterSave` once it has committed.
  #write(check: WriteCheck | undefined, events: DataClassEvents | undefined): Entity<M, N> {
    const written = Object.keys(this.#changes)
    const saved = (this.#base
      ? updateEntity(this.#dc, this.#base.key, this.#changes, check, false)
      : createEntity(this.#dc, this.#changes, false)) as unknown as Entity<M, N>
    this.#base = saved
    this.#changes = Object.create(null) as Record<string, unknown>
    const after = events && afterSave(events, this.#dc, saved as unknown as Entity, written)
    if (after) afterCommit(this.#dc.datastore, after)
    return saved
  }

  /**
   * 4D's `drop(mode?)`: deletes the base entity if its stamp is unchanged, or whatever version is
   * current with `{ force: true }` (4D's `dk force drop if stamp changed`), and answers 4D's result
   * object as `save()` does (5 for a new entity, which has nothing to drop).
   */
  drop(options: DropOptions = {}): WriteResult {
    if (!this.#base) return GONE
    return attemptWrite(() => this.dropOrFail(options))
  }

  /**
   * `drop()` the throwing way: StampChanged (1263) if the stamp changed (unless `force`),
   * EntityNotFound (1542) if it was deleted, EntityLocked (9070).
   */
  dropOrFail(options: DropOptions = {}): void {
    if (!this.#base) throw new Error('drop: this entity was never saved')
    dropEntity(this.#dc, this.#base.key, options.force ? {} : { stamp: this.#base.stamp })
  }
}

/** The draft members' names: an attribute of the same name is read and set with `get`/`set` only. */
type DraftMemberName = keyof EntityDraftCore | keyof object | 'constructor'

/**
 * A typed model's attributes of dataclass `N` as properties of its drafts: those a write may name
 * read and set (`draft.salary = 5200`, as `set('salary', 5200)`), the others only read. None for
 * the untyped model (`get`/`set` there).
 */
export type DraftAttributes<M extends ModelTypes, N extends DataClassName<M>> = DraftWritable<
  M,
  N
> &
  DraftReadOnly<M, N>

/** The attributes a draft's properties set (as `set(name, value)`). */
type DraftWritable<M extends ModelTypes, N extends DataClassName<M>> = {
  -readonly [K in WritableName<M, N> as PropertyName<M, N, K, DraftMemberName>]: DraftValue<M, N, K>
}

/** The attributes a draft's properties only read: computed ones, and the 1→N relations. */
type DraftReadOnly<M extends ModelTypes, N extends DataClassName<M>> = {
  readonly [
    K in Exclude<AttributeName<M, N>, WritableName<M, N>> as PropertyName<M, N, K, DraftMemberName>
  ]: DraftValue<M, N, K>
}

/**
 * An entity being edited (see the module's comment), with the attributes of a typed model as
 * properties. Each dataclass's drafts are of a subclass of EntityDraftCore whose prototype holds
 * them (attribute-properties.ts).
 */
export type EntityDraft<
  M extends ModelTypes = UntypedModel,
  N extends DataClassName<M> = DataClassName<M>,
> = EntityDraftCore<M, N> & DraftAttributes<M, N>

/** The class of every draft (`x instanceof EntityDraft`); each dataclass's are of a subclass. */
export const EntityDraft = EntityDraftCore
