/**
 * @module What the dataclass and entity members written outside their classes (info, indexes,
 * `fromCollection`, `toObject`, `diff`) need of a dataclass and its entities: named by these
 * members, which DataClass and Entity have, and not by their classes, which call these files and
 * would otherwise be named back by them.
 */
import type { AttributeDef, DataClassDef, StorageAttributeDef } from '../../schema/definitions.js'
import type { KeyValue, StoredValues } from '../../store/entity-record.js'
import type { Table } from '../../store/table.js'
import type { WriteCheck } from '../../txn/transaction.js'
import type { StoredValue } from '../../values/coerce.js'

/** An entity as the members read it: its dataclass, key, row, stamp and values. */
export interface MemberEntity {
  readonly dataClass: MemberClass
  readonly key: KeyValue
  readonly rowId: number
  readonly stamp: number
  readonly values: StoredValues
  get(name: string): unknown
}

/** A dataclass as the members read and write it (writes through its own create and update). */
export interface MemberClass {
  readonly name: string
  readonly def: DataClassDef
  readonly table: Table
  readonly datastore: { dataClass(name: string): MemberClass }
  attribute(name: string): AttributeDef
  coerce(attr: StorageAttributeDef, raw: unknown): StoredValue
  indexes(): readonly { readonly attribute: string }[]
  get(key: unknown): MemberEntity | null
  create(values: Readonly<Record<string, unknown>>): MemberEntity
  update(key: unknown, values: Readonly<Record<string, unknown>>, check?: WriteCheck): MemberEntity
}
