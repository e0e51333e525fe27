/**
 * @module The class of each dataclass's object: DataClassCore with 4D's `ds.Employee.lastName` on
 * its prototype (attribute-properties.ts), made by the Datastore for each dataclass. The Datastore
 * hands in DataClassCore, so that this file imports none of the classes and stays out of their
 * import circle (data-class.ts needs nothing of it).
 */
import type { DataClassDef } from '../../schema/definitions.js'
import { attributeInfo } from '../members/data-class-info.js'
import type { MemberClass } from '../members/member-class.js'
import { withAttributeProperties } from './attribute-properties.js'

/** @internal The fields a DataClass object has of its own: an attribute of one of these names gets no property. */
export const DATA_CLASS_FIELDS = [
  'datastore',
  'def',
  'table',
  'restrictFunction',
  'entityOf',
] as const

/**
 * @internal The class of dataclass `def`'s object: DataClassCore with 4D's `ds.Employee.lastName`
 * (the attribute object, as `attributeInfo(name)` gives it) on its prototype, as its entities'
 * properties are on theirs (attribute-properties.ts).
 */
// `any`: the constructor of any class, as attribute-properties.ts takes it.
export function dataClassClassOf<C extends abstract new (...args: any[]) => object>(
  DataClassCore: C,
  def: DataClassDef,
): C {
  return withAttributeProperties(DataClassCore, def, 'DataClass', DATA_CLASS_FIELDS, (attr) => ({
    get(this: object) {
      return attributeInfo(this as MemberClass, attr.name)
    },
  }))
}
