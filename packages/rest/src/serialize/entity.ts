/**
 * @module Entities in the wire's read form. Key order follows the real server:
 * in a selection `__KEY, __TIMESTAMP, __STAMP, attributes…`; alone
 * `__entityModel, __DATACLASS, __KEY, __TIMESTAMP, __STAMP, attributes…`.
 * Relations and pictures/BLOBs come in the deferred form; date-only values as `!!YYYY-MM-DD!!`.
 *
 * An entity is written straight to JSON text, the text `JSON.stringify` would give for it as an
 * object: building that object first and stringifying it was most of the time of a read by key
 * (each value is still written by JSON.stringify, so escaping is the engine's own).
 */
import {
  Entity,
  EntitySelection,
  keyText,
  type AttributeDef,
  type CalculatedFn,
  type DataClass,
  type DataClassDef,
  type StoredValue,
} from '@entistore/core'
import { ColumnWriter } from './column-writer.js'
import { shapeOf, shapeOfClass, type Slot } from './entity-shape.js'
import { LastIso } from './last-iso.js'
import { deferredEntityText, deferredText, jsonText, storedText } from './stored-text.js'
import { computedValue, REFUSED } from './computed-value.js'
import { prune, type Member, type Projection } from './projection.js'
import { partsText, type Nested, type Part } from './reply-parts.js'
import type { Uris } from './uris.js'

export { isShown, shownNames, visibleAttributes } from './entity-shape.js'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

const q = JSON.stringify as (text: string) => string

/** A relation a reply writes out (`EntityWriter.writtenOut`). */
export interface WrittenOut {
  readonly attr: AttributeDef
  /** The dataclass it leads to. */
  readonly target: DataClass
  readonly member: Extract<Member, { kind: 'entity' | 'entities' }>
}

/** Whether a reply may show `attr` of `dc` to the session (permissions.ts). */
export type Shows = (dc: DataClassDef, attr: AttributeDef) => boolean

export class EntityWriter {
  readonly #uris: Uris
  readonly #shows: Shows | undefined
  readonly #iso = new LastIso()
  // The deferred form of each related entity written, by its version (a version's dataclass and
  // key never change): many entities point at the same few (a Group of 200 behind every Item), and
  // its URI and key texts were a good part of writing a small entity. Shared with restricted().
  readonly #deferredTexts: WeakMap<Entity, string>
  // singleShared's last version and its text.
  #lastShared: Entity | undefined
  #lastSharedText = ''

  /**
   * The same texts written from a load's columns for the rows never written since
   * (column-writer.ts): a writer for a reader who may see every attribute has one, a restricted
   * one none.
   */
  readonly columns: ColumnWriter | undefined

  constructor(uris: Uris, shows?: Shows, deferredTexts = new WeakMap<Entity, string>()) {
    this.#uris = uris
    this.#shows = shows
    this.#deferredTexts = deferredTexts
    this.columns = shows === undefined ? new ColumnWriter(uris) : undefined
  }

  /** A writer for one request that leaves out the attributes `shows` refuses. */
  restricted(shows: Shows): EntityWriter {
    return new EntityWriter(this.#uris, shows, this.#deferredTexts)
  }

  #hidden(entity: Entity, slot: Slot): boolean {
    return this.#shows !== undefined && !this.#shows(entity.dataClass.def, slot.attr)
  }

  /**
   * One entity, as in `GET /rest/Employee[3]`: its JSON text (`projection`: see projection.ts).
   * A projection that writes relations out makes it in one piece here: a reply writes such an
   * entity with `parts` instead.
   */
  single(entity: Entity, projection?: Projection): string {
    if (projection?.nested) return partsText(this.parts('single', entity, projection), this.expand)
    return this.#fill(shapeOf(entity).singleOpen, entity, projection)
  }

  /**
   * The getters with steps (a 4D project's) of the computed attributes this writer writes of an
   * entity of `dc` under `projection`, at its top level: what a reply makes ahead, in its read's
   * slices (core's `gettersAhead`). Their relations' entities are written with getters called at
   * once.
   */
  gettersWithSteps(dc: DataClass, projection?: Projection): CalculatedFn[] {
    const stepped = shapeOfClass(dc).stepped
    if (stepped.length === 0) return []
    const getters: CalculatedFn[] = []
    for (const { attr } of stepped) {
      if (this.#shows !== undefined && !this.#shows(dc.def, attr)) continue
      if (projection !== undefined && !projection.all && !projection.members.has(attr.name))
        continue
      if (attr.kind === 'calculated' && attr.compute !== undefined) getters.push(attr.compute)
    }
    return getters
  }

  /**
   * The relations `parts` writes out of an entity of `dc` under `projection` (`$expand`, a path
   * through a relation in `$attributes`), those the session may see: each with its member.
   */
  writtenOut(dc: DataClass, projection: Projection): WrittenOut[] {
    const out: WrittenOut[] = []
    for (const { attr } of shapeOfClass(dc).slots) {
      const member = projection.members.get(attr.name)
      if (member?.kind !== 'entity' && member?.kind !== 'entities') continue
      if (attr.kind !== 'relatedEntity' && attr.kind !== 'relatedEntities') continue
      if (this.#shows === undefined || this.#shows(dc.def, attr))
        out.push({ attr, target: dc.datastore.dataClass(attr.target), member })
    }
    return out
  }

  /**
   * Which of the texts of the entity's version `single(entity, projection)` writes: '' for a
   * reader who may see every attribute, with no projection; else one character an attribute in
   * model order, '1' for those written (what this writer's session may read, and the projection
   * names). Undefined when the text depends on more than the version and that: a computed
   * attribute or an alias shown, a relation written out, an object pruned to some paths.
   */
  viewOf(entity: Entity, projection?: Projection): string | undefined {
    const shape = shapeOf(entity)
    if (!shape.ownValues || projection?.nested) return undefined
    if (this.#shows === undefined && projection === undefined) return ''
    let view = ''
    for (const slot of shape.slots) {
      const m = projection?.members.get(slot.attr.name)
      if (m !== undefined && m.kind !== 'value') return undefined
      const named = projection === undefined || projection.all || m !== undefined
      view += named && !this.#hidden(entity, slot) ? '1' : '0'
    }
    return view
  }

  /**
   * `single(entity)`, the text of the last version asked for kept: the live feed sends one version
   * to every subscriber in turn, and where the text depends on the version alone (no session's
   * rights, no projection) it is rendered once for them all, not once each.
   */
  singleShared(entity: Entity): string {
    if (entity === this.#lastShared) return this.#lastSharedText
    const text = this.single(entity)
    if (this.viewOf(entity) === '') {
      this.#lastShared = entity
      this.#lastSharedText = text
    }
    return text
  }

  /**
   * The single form of a version a save would make but that was not saved (`$refresh=true`):
   * every attribute as the save would leave it, with `stamp` (the stored entity's, 0 for a new
   * one) in place of the version's, so that a client saving it next sends the stamp it holds.
   */
  unsaved(entity: Entity, stamp: number): string {
    return `${this.#attributes(this.#head(shapeOf(entity).singleOpen, entity, stamp), entity)}}`
  }

  /** One member of `__ENTITIES`: its JSON text. */
  member(entity: Entity, projection?: Projection): string {
    if (projection?.nested) return partsText(this.parts('member', entity, projection), this.expand)
    return this.#fill('{', entity, projection)
  }

  /**
   * The `$asArray` form (the current server's): `__KEY` as the key's own JSON type, `__STAMP`,
   * scalar attributes; relations left out unless the projection writes them out.
   */
  plain(entity: Entity, projection?: Projection): string {
    if (projection?.nested) return partsText(this.parts('plain', entity, projection), this.expand)
    let out = this.#plainHead(entity)
    for (const slot of shapeOf(entity).slots) {
      if (this.#hidden(entity, slot)) continue
      if (
        slot.relation ||
        (projection && !projection.all && !projection.members.has(slot.attr.name))
      )
        continue
      const v = this.#member(entity, slot, projection?.members.get(slot.attr.name))
      if (v !== undefined) out += slot.member + v
    }
    return `${out}}`
  }

  /**
   * The JSON text of `entity` in one of the forms above, under a projection that writes
   * relations out, as parts: text, and each related entity where it goes, to be written by
   * `expand` (reply-parts.ts). Such an entity may stand for a text of any size.
   */
  *parts(
    form: 'single' | 'member' | 'plain',
    entity: Entity,
    projection: Projection,
  ): Generator<Part, void, undefined> {
    const shape = shapeOf(entity)
    const plain = form === 'plain'
    let out = plain
      ? this.#plainHead(entity)
      : this.#head(form === 'single' ? shape.singleOpen : '{', entity)
    for (const slot of shape.slots) {
      if (this.#hidden(entity, slot)) continue
      const m = projection.members.get(slot.attr.name)
      // What `plain` and `#projected` leave out: in the plain form a relation unless written out.
      const usual = m === undefined || m.kind === 'value'
      if (plain ? usual && (slot.relation || (!projection.all && !m)) : !m && !projection.all)
        continue
      if (m?.kind === 'entity') {
        const related = entity.valueOf(slot.attr) as Entity | null
        if (related === null) {
          out += `${slot.member}null`
          continue
        }
        yield out + slot.member
        out = ''
        yield { entity: related, projection: m.projection }
      } else if (m?.kind === 'entities') {
        // The real server's embedded form: `__ENTITYSET` (the relation's URI), `__GlobalStamp`,
        // `__COUNT`, `__SENT`, `__FIRST`, `__ENTITIES`; at most the related dataclass's default
        // page size of entities, the URI pages through the rest.
        const related = entity.valueOf(slot.attr) as EntitySelection
        const page = related.window(0, related.dataClass.def.defaultTopSize)
        const members: Entity[] = []
        for (const e of page) if (e) members.push(e)
        const uri = this.#uris.attribute(entity.dataClass.name, entity.getKey(), slot.attr.name)
        const stamp = entity.dataClass.datastore.globalStamp
        yield `${out}${slot.member}{"__ENTITYSET":${q(uri)},"__GlobalStamp":${stamp},"__COUNT":${related.length},"__SENT":${members.length},"__FIRST":0,"__ENTITIES":[`
        for (let i = 0; i < members.length; i++) {
          if (i > 0) yield ','
          yield { entity: members[i]!, projection: m.projection }
        }
        out = ']}'
      } else {
        const v = this.#member(entity, slot, m)
        if (v !== undefined) out += slot.member + v
      }
    }
    yield `${out}}`
  }

  /** How `parts` wants a related entity written: whole when it writes no relation out itself. */
  readonly expand = ({ entity, projection }: Nested): string | Iterator<Part> =>
    projection.nested
      ? this.parts('member', entity, projection)
      : this.#fill('{', entity, projection)

  /**
   * An entity as a write answers it (4D's `$method=update` reply):
   * `{"__STATUS":…,"__KEY":…,"__STAMP":…,"uri":…,"__TIMESTAMP":"!!YYYY-MM-DD!!", attributes…}`.
   * `status` is the `__STATUS` object's JSON text; `errors`, when given, the `__ERROR` array's JSON
   * text, written last. A refused save has no `uri`, as in the real server's stamp-error reply.
   */
  written(entity: Entity, status: string, errors?: string): string {
    const key = entity.getKey()
    const uri =
      errors === undefined ? `,"uri":${q(this.#uris.entity(entity.dataClass.name, key))}` : ''
    const day = new Date(entity.getTimestamp()).toISOString().slice(0, 10)
    const open = `{"__STATUS":${status},"__KEY":${q(keyText(key))},"__STAMP":${entity.getStamp()}${uri},"__TIMESTAMP":"!!${day}!!"`
    const close = errors === undefined ? '}' : `,"__ERROR":${errors}}`
    return this.#attributes(open, entity) + close
  }

  #fill(open: string, entity: Entity, projection?: Projection): string {
    const head = this.#head(open, entity)
    return `${projection ? this.#projected(head, entity, projection) : this.#attributes(head, entity)}}`
  }

  /**
   * `open` and the members every entity begins with: `__KEY`, `__TIMESTAMP`, `__STAMP` (the
   * entity's own stamp unless `stamp` is given). A new entity a function returns unsaved, whose
   * key the save gives (`draft.unsavedVersion()`), has no key nor time yet: `__STAMP` alone.
   */
  #head(open: string, entity: Entity, stamp = entity.getStamp()): string {
    const key = entity.getKey() as Entity['key'] | null
    if (key === null) return `${open}"__STAMP":${stamp}`
    return `${open}"__KEY":${q(keyText(key))},"__TIMESTAMP":${this.#iso.text(entity.getTimestamp())},"__STAMP":${stamp}`
  }

  /** The `$asArray` form's first members: `__KEY` as the key's own JSON type, `__STAMP`. */
  #plainHead(entity: Entity): string {
    return `{"__KEY":${jsonText(entity.getKey())},"__STAMP":${entity.getStamp()}`
  }

  /** `out` followed by the attributes `projection` selects, in model order (it nests none). */
  #projected(out: string, entity: Entity, projection: Projection): string {
    for (const slot of shapeOf(entity).slots) {
      if (this.#hidden(entity, slot)) continue
      const m = projection.members.get(slot.attr.name)
      if (!m && !projection.all) continue
      const v = this.#member(entity, slot, m)
      if (v !== undefined) out += slot.member + v
    }
    return out
  }

  /**
   * One attribute's text as `m` says (absent: its usual form). A relation written out is never
   * asked here: a projection that has one is written by `parts`.
   */
  #member(entity: Entity, slot: Slot, m: Member | undefined): string | undefined {
    if (m?.kind === 'object')
      return jsonText(prune(entity.record.values[slot.attr.name] ?? null, m.tree))
    return this.#value(entity, slot)
  }

  // The generic writer of one slot, handed to the compiled writers (made once per writer).
  readonly #generic = (entity: Entity, slot: Slot): string | undefined => this.#value(entity, slot)

  /** `out` followed by each visible attribute of `entity`, as `,"name":value`. */
  #attributes(out: string, entity: Entity): string {
    const shape = shapeOf(entity)
    if (shape.all && this.#shows === undefined)
      return shape.all(out, entity, this.#generic, shape.slots)
    for (const slot of shape.slots) {
      if (this.#hidden(entity, slot)) continue
      const v = this.#value(entity, slot)
      if (v !== undefined) out += slot.member + v
    }
    return out
  }

  /** The JSON text of one attribute of `entity`, or undefined to leave it out. */
  #value(entity: Entity, slot: Slot): string | undefined {
    const { attr } = slot
    switch (attr.kind) {
      case 'storage':
        return this.#stored(
          entity,
          attr.name,
          slot.dateOnly,
          entity.record.values[attr.name] ?? null,
        )
      case 'relatedEntity': {
        const related = entity.valueOf(attr) as Entity | null
        return related ? this.#deferredEntity(related) : 'null'
      }
      case 'relatedEntities':
        // A new entity not saved (no key yet) has no URI to defer to: none is written.
        if ((entity.getKey() as Entity['key'] | null) === null) return undefined
        return deferredText(this.#uris.attribute(entity.dataClass.name, entity.getKey(), attr.name))
      case 'calculated': {
        // Its code reads as the session: refused, the attribute is left out (computed-value.ts).
        const v = computedValue(entity, attr)
        return v === REFUSED ? undefined : this.#computed(entity, attr.name, v)
      }
      case 'alias': {
        const v = entity.valueOf(attr)
        // An alias of a date-only attribute holds a date-only value: written as the attribute is.
        if (typeof v === 'string' && slot.dateOnly) return q(`!!${v}!!`)
        return this.#computed(entity, attr.name, v)
      }
    }
  }

  #deferredEntity(related: Entity): string {
    let text = this.#deferredTexts.get(related)
    if (text === undefined) {
      text = deferredEntityText(this.#uris, related.dataClass.name, related.getKey())
      this.#deferredTexts.set(related, text)
    }
    return text
  }

  #stored(entity: Entity, name: string, dateOnly: boolean, v: StoredValue): string {
    return storedText(this.#uris, entity.dataClass.name, entity.getKey(), name, dateOnly, v)
  }

  // Calculated and alias values have no declared storage form: render them by what they are.
  #computed(entity: Entity, name: string, v: unknown): string {
    if (v instanceof Entity) return this.#deferredEntity(v)
    if (v instanceof EntitySelection)
      return deferredText(this.#uris.attribute(entity.dataClass.name, entity.getKey(), name))
    if (v instanceof Date) return q(v.toISOString())
    if (
      v === undefined ||
      typeof v === 'function' ||
      typeof v === 'symbol' ||
      typeof v === 'bigint'
    )
      return 'null'
    return this.#stored(entity, name, false, v as StoredValue)
  }
}
