/**
 * @module What a write does with a value before it is staged, the same for a transaction's writes
 * (transaction.ts) and for a single update committed alone (single-update.ts): the version a picture
 * or BLOB gets, the relation an explicit foreign key names, and where a value was written, for
 * messages; and the shapes both take: the values written (Assignments) and the permit asked first.
 */
import type { DataClassDef, StorageAttributeDef } from '../schema/definitions.js'
import type { Locate } from '../store/changes.js'
import type { EntityRecord, KeyValue } from '../store/entity-record.js'
import type { StoredValue } from '../values/coerce.js'
import { binaryValue, isBinaryValue } from '../values/binary.js'

/**
 * A picture or BLOB written by a create or an update, with the version `$version` names: the stamp
 * the entity gets by this write (or the version before it + 1, if a data file made that larger).
 * So every write of it gives a new version (a client's cached copy
 * under the old URL is never taken for the new one), the version never goes back while the entity
 * lives, even through a null in between, and it tells when the picture was last written, as the
 * real server's does. The value read from the attribute and written back unchanged keeps its own.
 */
export function versioned(
  v: StoredValue,
  attr: StorageAttributeDef,
  base: EntityRecord | null,
): StoredValue {
  // The common case first, without reading the value before (a load of a changing name).
  if (!isBinaryValue(v)) return v
  const before = base?.values[attr.name]
  if (base !== null && before === v) return v
  // A data file may give a version past the stamp: the next one is still past it.
  const after = isBinaryValue(before) ? before.version + 1 : 1
  const version = Math.max(base === null ? 1 : base.stamp + 1, after)
  return v.version === version ? v : binaryValue(v.bytes, v.type, version)
}

/** Per dataclass: its explicit foreign-key attributes → the dataclass they refer to. */
const explicitKeys = new WeakMap<DataClassDef, Map<StorageAttributeDef, string>>()

/**
 * The dataclass whose key `attr` holds, when the model names a relation's foreign key as an
 * attribute of its own (`employerID`): writing it directly is a reference too.
 */
export function explicitTarget(dc: DataClassDef, attr: StorageAttributeDef): string | undefined {
  let targets = explicitKeys.get(dc)
  if (!targets) {
    targets = new Map()
    for (const a of dc.attributes) {
      if (a.kind === 'relatedEntity' && a.foreignKey !== a.name)
        targets.set(a.foreignKeyAttribute, a.target)
    }
    explicitKeys.set(dc, targets)
  }
  return targets.get(attr)
}

/** Where a value was written, for messages: `Employee(5).salary`, or `Employee(new).salary`. */
export const locator =
  (dc: DataClassDef, key: KeyValue | undefined): Locate =>
  (attribute) =>
    `${dc.name}(${key === undefined ? 'new' : String(key)})${attribute === undefined ? '' : `.${attribute}`}`

/** Attribute values as written: attribute name → value (a relation takes the related key). */
export type Assignments = Readonly<Record<string, unknown>>

/**
 * Refuses (1558, 1559, 1608, 1557…) `values` that a write of `dc` would store and that whoever
 * acts now may not write (`creating`: in a new entity). Asked before anything is staged.
 */
export type WritePermit = (dc: DataClassDef, values: Assignments, creating: boolean) => void
