/**
 * @module What the REST interface writes of every entity of a dataclass, worked out once per
 * dataclass: the attributes it shows, in model order, each with its member name as JSON, and what
 * the writer needs to know of them (entity.ts writes entities from it).
 */
import {
  aliasTarget,
  attributeNames,
  hasGetterSteps,
  isShownAttribute,
  type AliasAttributeDef,
  type AttributeDef,
  type DataClass,
  type DataClassDef,
  type Entity,
  type SchemaDef,
} from '@entistore/core'
import { compileAttributes, storedForm, type CompiledAttributes } from './compiled-attributes.js'

/**
 * Whether the REST interface shows `attr`: it is exposed and public, a relation leads to a
 * dataclass that is too (a relation to a hidden dataclass would leak it), and an alias reads only
 * what is shown (core's `isShownAttribute`, which filters and `$orderby` use as well).
 */
export function isShown(schema: SchemaDef, attr: AttributeDef): boolean {
  return isShownAttribute(schema, attr)
}

/** The names of the attributes a client may see: an unknown name's error suggests from them. */
export const shownNames = (dc: DataClass): string[] =>
  attributeNames(dc.datastore.schema, dc.def, true)

/** The attributes a client may see, in model order. */
export function visibleAttributes(schema: SchemaDef, dc: DataClassDef): AttributeDef[] {
  return dc.attributes.filter((a) => isShown(schema, a))
}

/**
 * The attribute an alias path ends on (`employer.name` → Company's `name`), if it resolves to one
 * value: an alias through a to-many relation holds many.
 */
function aliasEnd(
  schema: SchemaDef,
  dc: DataClassDef,
  alias: AliasAttributeDef,
): AttributeDef | undefined {
  const target = aliasTarget((n) => schema.byName.get(n), dc, alias.path)
  return target?.many === false ? target.attr : undefined
}

/** One visible attribute as it is written: its member name once in JSON (`,"name":`). */
export interface Slot {
  readonly attr: AttributeDef
  readonly member: string
  /** A stored date-only value, or an alias that ends on one: written between `!!`. */
  readonly dateOnly: boolean
  /** A relation: left out of the `$asArray` form. */
  readonly relation: boolean
}

/** What is written for every entity of a dataclass, worked out once per dataclass. */
export interface Shape {
  /** `{"__entityModel":"Name","__DATACLASS":"Name",` */
  readonly singleOpen: string
  readonly slots: readonly Slot[]
  /** Writes every slot, for a reader who may see them all (compiled-attributes.ts). */
  readonly all: CompiledAttributes | undefined
  /**
   * Whether an entity's text depends on its own version alone: no computed attribute or alias
   * (whose values other data, the clock or the caller decide) is shown.
   */
  readonly ownValues: boolean
  /** The computed attributes whose getters have steps (a 4D project's): made ahead of a reply. */
  readonly stepped: readonly Slot[]
}

const shapes = new WeakMap<DataClassDef, Shape>()
export const shapeOf = (entity: Entity): Shape => shapeOfClass(entity.dataClass)
export function shapeOfClass(dataClass: DataClass): Shape {
  const dc = dataClass.def
  let shape = shapes.get(dc)
  if (shape) return shape
  const schema = dataClass.datastore.schema
  const name = JSON.stringify(dc.name)
  const slots = visibleAttributes(schema, dc).map((attr): Slot => {
    const end = attr.kind === 'alias' ? aliasEnd(schema, dc, attr) : attr
    return {
      attr,
      member: `,${JSON.stringify(attr.name)}:`,
      dateOnly: end?.kind === 'storage' && end.type === 'date' && end.dateOnly,
      relation: attr.kind === 'relatedEntity' || attr.kind === 'relatedEntities',
    }
  })
  shape = {
    singleOpen: `{"__entityModel":${name},"__DATACLASS":${name},`,
    slots,
    ownValues: slots.every(({ attr }) => attr.kind !== 'calculated' && attr.kind !== 'alias'),
    stepped: slots.filter(({ attr }) => attr.kind === 'calculated' && hasGetterSteps(attr.compute)),
    all: compileAttributes(
      slots.map(({ attr, member, dateOnly }) =>
        attr.kind === 'storage'
          ? { form: storedForm(attr.type, dateOnly), name: attr.name, member }
          : { form: 'generic', member },
      ),
    ),
  }
  shapes.set(dc, shape)
  return shape
}
