/**
 * @module What 4D's DataClass class tells about a dataclass and its attributes, in 4D's shapes:
 * `dataClass.getInfo()` and the attribute objects 4D gives as `ds.Employee.salary`
 * (`dataClass.attributeInfo('salary')` here). Fresh plain objects at each call: 4D lets code
 * change them, and that changes nothing of the model.
 *
 * Read from the model (schema/definitions.ts) and, for `indexed`, from the live indexes: an index
 * made later with `createIndex` counts, as one added in 4D's structure editor does.
 */
import {
  generatedBy,
  type AttributeDef,
  type DataClassDef,
  type StorageAttributeDef,
} from '../../schema/definitions.js'
import type { ValueType } from '../../values/value-types.js'
import type { MemberClass } from './member-class.js'

/** 4D's `dataClass.getInfo()`. */
export interface DataClassInfo {
  /** Whether the dataclass is exposed over REST. */
  readonly exposed: boolean
  readonly name: string
  /** The name of the primary key attribute. */
  readonly primaryKey: string
  /** The table number of the catalog (4D's internal table number). */
  readonly tableNumber: number
}

/**
 * 4D's attribute object (`ds.Employee.firstname`): which properties are there depends on the
 * kind, as in 4D (`autoFilled`, `fieldNumber`, `indexed`, `keywordIndexed`, `mandatory` and
 * `unique` only for stored values; `relatedDataClass` and `inverseName` only for relations; `path`
 * for an alias).
 */
export interface DataClassAttribute<Name extends string = string> {
  readonly name: Name
  readonly kind: AttributeDef['kind']
  /**
   * The conceptual type: `blob`, `bool`, `date`, `image`, `number`, `object` or `string` for a
   * value; the related dataclass's name for an N→1 relation, and that name + `Selection` for 1→N.
   */
  readonly type: string
  /** 4D's field type (`Value type` constants: 0 alpha, 1 real, 9 longint, 38 object, 42 collection…). */
  readonly fieldType: number
  readonly exposed: boolean
  readonly readOnly: boolean
  readonly autoFilled?: boolean
  readonly fieldNumber?: number
  readonly indexed?: boolean
  /** Always false: Entistore has no keyword index (`%` scans). */
  readonly keywordIndexed?: boolean
  /** 4D's "Reject NULL value input": the model's `not_null`. */
  readonly mandatory?: boolean
  readonly unique?: boolean
  readonly relatedDataClass?: string
  readonly inverseName?: string
  /** An alias's path, dotted. */
  readonly path?: string
  /** The class of an object attribute (`4D.Vector`), when the catalog names one. */
  readonly classID?: string
}

/** 4D's `Value type` of a field, by Entistore value type (4D's examples give a text field 0). */
const FIELD_TYPES: Readonly<Record<ValueType, number>> = {
  string: 0,
  uuid: 0,
  number: 1,
  image: 3,
  date: 4,
  bool: 6,
  byte: 8,
  word: 8,
  long: 9,
  duration: 11,
  long64: 25,
  blob: 30,
  object: 38,
}

const IS_OBJECT = 38
const IS_COLLECTION = 42

/** The conceptual type 4D's `type` gives for a value type. */
function conceptualType(type: ValueType): string {
  switch (type) {
    case 'uuid':
      return 'string'
    case 'byte':
    case 'word':
    case 'long':
    case 'long64':
    case 'duration':
      return 'number'
    default:
      return type
  }
}

/** 4D's `getInfo()` of `def`. */
export function dataClassInfo(def: DataClassDef): DataClassInfo {
  return {
    exposed: def.exposed,
    name: def.name,
    primaryKey: def.key.name,
    tableNumber: def.tableNumber,
  }
}

// What an attribute's value is, for `type` and `fieldType`: a value type, or a relation's target.
type Result = { readonly value: ValueType } | { readonly one: string } | { readonly many: string }

/**
 * What `attr` reads as: a calculated attribute's own type; an alias's, that of the attribute at the
 * end of its path (a relation stays a relation).
 */
function resultOf(dc: MemberClass, attr: AttributeDef): Result {
  switch (attr.kind) {
    case 'storage':
    case 'calculated':
      return { value: attr.type }
    case 'relatedEntity':
      return { one: attr.target }
    case 'relatedEntities':
      return { many: attr.target }
    case 'alias': {
      let def = dc.def
      let at: AttributeDef = attr
      for (const step of attr.path) {
        at = def.attributesByName.get(step)!
        if (at.kind === 'relatedEntity') def = dc.datastore.dataClass(at.target).def
      }
      return resultOf(dc, at)
    }
  }
}

/** 4D's attribute object for attribute `name` of `dc` (AttributeNotFound, 1500, if none). */
export function attributeInfo<K extends string>(dc: MemberClass, name: K): DataClassAttribute<K> {
  const attr = dc.attribute(name)
  const result = resultOf(dc, attr)
  const typed =
    'value' in result
      ? { type: conceptualType(result.value), fieldType: FIELD_TYPES[result.value] }
      : 'one' in result
        ? { type: result.one, fieldType: IS_OBJECT }
        : { type: `${result.many}Selection`, fieldType: IS_COLLECTION }
  const info = {
    name,
    kind: attr.kind,
    ...typed,
    exposed: attr.exposed,
    readOnly: attr.readOnly,
  }
  switch (attr.kind) {
    case 'storage':
      return { ...info, ...storedFacts(dc, attr) }
    case 'relatedEntity':
      return withInverse(info, attr.target, attr.inverseName ?? toManyBack(dc, attr.target, name))
    case 'relatedEntities':
      return withInverse(info, attr.target, attr.inverse)
    case 'alias':
      return { ...info, path: attr.path.join('.') }
    case 'calculated':
      return info
  }
}

// The 1→N relation of `target` whose inverse is `dc`'s N→1 `relation` (the model names it there).
const toManyBack = (dc: MemberClass, target: string, relation: string): string | undefined =>
  dc.datastore
    .dataClass(target)
    .def.attributes.find(
      (a) => a.kind === 'relatedEntities' && a.target === dc.name && a.inverse === relation,
    )?.name

const withInverse = <T extends object>(info: T, target: string, inverse: string | undefined) =>
  inverse === undefined
    ? { ...info, relatedDataClass: target }
    : { ...info, relatedDataClass: target, inverseName: inverse }

// The properties 4D gives only for an attribute that stores a value.
function storedFacts(dc: MemberClass, attr: StorageAttributeDef) {
  const classID = attr.extra['classID']
  return {
    fieldNumber: attr.fieldPos ?? dc.def.storage.indexOf(attr) + 1,
    indexed: dc.indexes().some((i) => i.attribute === attr.name),
    keywordIndexed: false,
    // 4D's "Autoincrement" and "Auto UUID": an autosequence, or a uuid key the engine makes.
    autoFilled: generatedBy(dc.def, attr) !== undefined,
    mandatory: attr.notNull || attr === dc.def.key,
    unique: attr.unique || attr === dc.def.key,
    ...(typeof classID === 'string' ? { classID } : {}),
  }
}
