/**
 * @module An entity as 4D code holds it (docs/API/EntityClass.md): a core Entity, the version it
 * read, and once code assigns an attribute, the draft of core that keeps the change until `save()`
 * (core's entities are immutable versions; 4D's are objects changed in memory). Attributes read
 * through core's `get` (the session's permissions apply), as 4D values: a related entity as an
 * entity, related entities as a selection, a Date attribute as a 4D Date, an object attribute as a
 * 4D object. An attribute computed by the class (`Function get`) that core does not compute runs
 * the class's code, after core has checked that the session may read the attribute.
 */
import { Entity as CoreEntity, hasGetterSteps, readAttribute } from '@entistore/core'
import type {
  AttributeDef,
  DataClass,
  DataClassDef,
  Entity,
  EntityDraft,
  EntitySelection,
} from '@entistore/core'
import { raise } from '../../runtime/errors/fourd-error.js'
import {
  MEMBER_READER,
  MISS,
  READ_STEPS,
  SET_MEMBER,
  SET_STEPS,
  TO_JSON,
  type MemberReader,
} from '../../runtime/values/host.js'
import type { Work } from '../../runtime/values/work.js'
import { aliasAhead, entityAsks, getterAhead, relationAhead, setAhead } from '../attribute-steps.js'
import { classNameOf, classSetter, NONE, OrdaHandle, runtimeNow, type Found } from './handle.js'
import type { OrdaKind } from '../orda-kind.js'
import { fromCoreError, viaCore } from '../core-errors.js'
import type { World } from '../world-shape.js'

export class EntityHandle extends OrdaHandle {
  /** The version read (it remembers the selection it was read from), or the last one saved. */
  declare entity: Entity | null
  /** The change in progress, or the new entity (`dataClass.new()`). */
  declare draft: EntityDraft | null
  /**
   * For a member of a selection: the selection and its position, of which core's copy that
   * remembers its place is made on demand (a field each, not a closure: one object a member).
   */
  declare private from: EntitySelection | undefined
  declare private index: number
  /**
   * Made by a relation read that gives it again (member-sites.ts `getInto`): held only by that
   * read's call and a local that keeps nothing, so the read may point it at the next entity.
   */
  declare reusable: boolean

  // Declared fields, assigned here (handle.ts says why).
  constructor(
    world: World,
    entity: Entity | null,
    draft: EntityDraft | null,
    from?: EntitySelection,
    index = 0,
  ) {
    super(world)
    this.entity = entity
    this.draft = draft
    this.from = from
    this.index = index
    this.reusable = false
  }

  /** The saved version as it remembers the selection it was read from (null for a new entity). */
  placed(): Entity | null {
    const from = this.from
    if (from === undefined) return this.entity
    this.from = undefined
    if (this.entity !== null) this.entity = from.memberAt(this.index) ?? null
    return this.entity
  }

  /** The entity is `entity` now (saved, reloaded), with no change pending and no selection. */
  replace(entity: Entity | null): void {
    this.point(entity)
  }

  /** The entity is `entity` now, member `index` of `from`, with no change pending. */
  point(entity: Entity | null, from?: EntitySelection, index = 0): void {
    this.entity = entity
    this.draft = null
    this.from = from
    this.index = index
  }

  get kind(): OrdaKind {
    return 'Entity'
  }

  get dataClass(): DataClass {
    return (this.draft?.dataClass ?? this.entity!.dataClass) as DataClass
  }

  protected get className(): string {
    return classNameOf(this.dataClass, 'Entity')
  }

  protected get shape(): object {
    return this.dataClass.def
  }

  protected ownsMember(name: string): boolean {
    return this.dataClass.def.attributesByName.has(name)
  }

  /** The entity as core takes it (a relation's value, a function's result): saved, or the draft. */
  core(): Entity | EntityDraft {
    return this.entity ?? this.draft!
  }

  /** The draft changes go to, made at the first change. */
  edit(): EntityDraft {
    return (this.draft ??= this.entity!.edit())
  }

  protected attribute(name: string): Found {
    const draft = this.draft
    const target = draft ?? this.entity!
    const attr = target.dataClass.def.attributesByName.get(name)
    if (attr === undefined) return NONE
    const raw = draft === null ? readSaved(target as Entity, attr) : viaCore(() => draft.get(name))
    if (byClassGetter(attr)) {
      // Core has no code for it: the class's `Function get`, once core allowed the read above.
      const rt = runtimeNow()
      const getter = this.classObject(rt).findGetter(name)
      if (getter !== undefined && rt !== undefined) return getter.invoke(rt, this.asThis(), [])
    }
    return this.world.attributeToFourD(attr, raw)
  }

  /**
   * The reader of the attribute `name` for the saved entities of this dataclass, for a site of
   * the generated code (member-sites.ts): none for a change in progress, nor for an attribute the
   * class computes (its `Function get` runs as `attribute` runs it), nor for another member.
   */
  [MEMBER_READER](name: string): MemberReader | undefined {
    if (this.draft !== null) return undefined
    const def = this.entity!.dataClass.def
    const attr = def.attributesByName.get(name)
    return attr === undefined || byClassGetter(attr) ? undefined : readerOf(def, attr)
  }

  [SET_MEMBER](name: string, value: unknown): void {
    const attr: AttributeDef | undefined = this.dataClass.def.attributesByName.get(name)
    if ((attr === undefined || attr.kind === 'calculated') && classSetter(this, name, value)) return
    if (attr === undefined) {
      viaCore(() => this.dataClass.attribute(name))
      return raise('ReadOnlyMember', { property: name })
    }
    const draft = this.edit()
    // A try rather than viaCore's closure, as readSaved: an assignment may run at every pass of a
    // loop (`$e.salary:=…`).
    try {
      draft.set(name, this.world.fromFourD(value) as never)
    } catch (e) {
      throw fromCoreError(e)
    }
  }

  [TO_JSON](): unknown {
    return this.world.recordToFourD(
      this.dataClass,
      viaCore(() => this.core().toObject()),
    )
  }

  // In a call in slices (attribute-steps.ts): a relation's restrict made ahead of its read, a
  // getter's call in steps (the read's value), the `touched` events of an assignment in steps.
  [READ_STEPS](name: string): Work<unknown> | undefined {
    return (
      relationAhead(this.dataClass, name, (attr) => entityAsks(this.entity, this.draft, attr)) ??
      getterAhead(this, name) ??
      aliasAhead(this, name, () => this.attribute(name))
    )
  }

  [SET_STEPS](name: string, value: unknown): Work<void> | undefined {
    return setAhead(this, name, value)
  }
}

/** Whether reading `attr` runs the class's `Function get` (core has no code for it). */
const byClassGetter = (attr: AttributeDef): boolean =>
  attr.kind === 'calculated' && attr.compute === undefined

/**
 * Core's own read of a saved entity, as the caller (its permission check), with the definition
 * found already (no second lookup by name); a try here rather than viaCore's closure: this runs
 * for every attribute 4D code reads.
 */
function readSaved(entity: Entity, attr: AttributeDef): unknown {
  try {
    return readAttribute(entity, attr)
  } catch (e) {
    throw fromCoreError(e)
  }
}

// One reader an attribute, made at the first site that reads it.
const readers = new WeakMap<AttributeDef, MemberReader>()

/** `attr` of dataclass `def` read from any saved entity of `def`; MISS for another object. */
function readerOf(def: DataClassDef, attr: AttributeDef): MemberReader {
  let reader = readers.get(attr)
  if (reader === undefined) {
    reader =
      attr.kind === 'storage' && attr.type !== 'date'
        ? storageReader(def, attr, attr.type)
        : attr.kind === 'relatedEntity'
          ? relationReader(def, attr)
          : otherReader(def, attr)
    // A relation's read may have its dataclass's restrict made ahead, a getter with steps its call
    // made in steps, an alias both along its path (READ_STEPS).
    if (
      attr.kind === 'relatedEntity' ||
      attr.kind === 'relatedEntities' ||
      attr.kind === 'alias' ||
      (attr.kind === 'calculated' && hasGetterSteps(attr.compute))
    )
      reader = Object.assign(reader, { ahead: true as const })
    readers.set(attr, reader)
  }
  return reader
}

// Each kind of reader is a function of its own, its conversion written in it (as
// attributeToFourD converts): one reader's code read numbers, texts and relations alike, and V8,
// which keeps what a function's code met for all its closures, found every read of it
// polymorphic (the 4d-language bench's For each, 1.5× → 1.3× TypeScript in one process).

/** The saved entity of `def` that `target` is, or undefined (another object, a change pending). */
function savedOf(target: unknown, def: DataClassDef): Entity | undefined {
  if (!(target instanceof EntityHandle) || target.draft !== null) return undefined
  const entity = target.entity!
  return entity.dataClass.def === def ? entity : undefined
}

// A storage attribute that is not a date: a scalar as it is, an object converted.
function storageReader(def: DataClassDef, attr: AttributeDef, type: string): MemberReader {
  return (target) => {
    const entity = savedOf(target, def)
    if (entity === undefined) return MISS
    const raw = readSaved(entity, attr)
    return typeof raw === 'object' && raw !== null
      ? (target as EntityHandle).world.toFourD(raw, type)
      : raw
  }
}

// A related entity: a new handle at each read (as toFourD makes one), or attributeToFourD's value
// of the rest (Null, a draft's relation set by key); `into`, the handle given again when it is
// one `into` made that no class code has had as `This` (else a new one it may give again).
function relationReader(def: DataClassDef, attr: AttributeDef): MemberReader {
  const read = (target: unknown, reusing: boolean, reuse: unknown): unknown => {
    const entity = savedOf(target, def)
    if (entity === undefined) return MISS
    const raw = readSaved(entity, attr)
    const world = (target as EntityHandle).world
    if (!(raw instanceof CoreEntity)) return world.attributeToFourD(attr, raw)
    if (!reusing) return new EntityHandle(world, raw, null)
    if (reuse instanceof EntityHandle && reuse.reusable && !reuse.shared && reuse.world === world) {
      reuse.point(raw)
      return reuse
    }
    const made = new EntityHandle(world, raw, null)
    made.reusable = true
    return made
  }
  const into = (target: unknown, reuse: unknown): unknown => read(target, true, reuse)
  return Object.assign((target: unknown) => read(target, false, undefined), { into })
}

function otherReader(def: DataClassDef, attr: AttributeDef): MemberReader {
  return (target) => {
    const entity = savedOf(target, def)
    if (entity === undefined) return MISS
    return (target as EntityHandle).world.attributeToFourD(attr, readSaved(entity, attr))
  }
}
