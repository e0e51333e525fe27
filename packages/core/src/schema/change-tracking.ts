/**
 * @module 4D's data change tracking in the model (4D docs, "ORDA / Using the Global Stamp", 20 R5
 * and later). A dataclass is tracked when its model declares a `__GlobalStamp` attribute (as a
 * structure with tracking on does, and so a catalog saved from such a server); the datastore then
 * has a `__DeletedRecords` dataclass, declared by the model or else added as 4D's structure editor
 * adds it. These are the only names starting with `__` a model may use.
 *
 * What the model loader enforces, from 4D's structure requirements: `__GlobalStamp` is a 64-bit
 * integer, indexed, and read-only (the engine writes it at each save); `__DeletedRecords` holds
 * `__PrimaryKey` (text), `__Stamp` (64-bit integer, indexed), `__TableName` (text) and
 * `__TableNumber` (integer).
 */
import type { AttributeJson, DataClassJson } from './model-json.js'

/** The attribute a tracked dataclass declares, holding the global stamp of its last change. */
export const GLOBAL_STAMP = '__GlobalStamp'
/** The dataclass holding a row per deleted entity of a tracked dataclass. */
export const DELETED_RECORDS = '__DeletedRecords'

/** The attributes of `__DeletedRecords` the engine fills, by their 4D names. */
export const DELETED_FIELDS = {
  primaryKey: '__PrimaryKey',
  stamp: '__Stamp',
  tableName: '__TableName',
  tableNumber: '__TableNumber',
} as const

// The value types each field may have (the first is what an added dataclass uses).
const DELETED_TYPES: Readonly<Record<string, readonly string[]>> = {
  __PrimaryKey: ['string'],
  __Stamp: ['long64', 'number'],
  __TableName: ['string'],
  __TableNumber: ['long', 'long64', 'word', 'number'],
}

/** The types `__GlobalStamp` may have: 4D asks for a 64-bit integer; a `number` holds it too. */
export const GLOBAL_STAMP_TYPES: readonly string[] = ['long64', 'number']

/** Whether a model may use the reserved name `name` (of a dataclass, or an attribute of `dataClass`). */
export function reservedNameAllowed(name: string, dataClass?: string): boolean {
  if (dataClass === undefined) return name === DELETED_RECORDS
  if (name === GLOBAL_STAMP) return dataClass !== DELETED_RECORDS
  return dataClass === DELETED_RECORDS && Object.hasOwn(DELETED_TYPES, name)
}

/** Why `attr`, a change-tracking attribute of `dataClass`, is refused; undefined when it is valid. */
export function trackingAttributeProblem(
  dataClass: string,
  attr: AttributeJson,
): string | undefined {
  const kind = attr.kind ?? 'storage'
  const allowed =
    attr.name === GLOBAL_STAMP
      ? GLOBAL_STAMP_TYPES
      : Object.hasOwn(DELETED_TYPES, attr.name)
        ? DELETED_TYPES[attr.name]!
        : undefined
  // Only `__DeletedRecords`'s own fields are checked: another dataclass may not use the names.
  if (allowed === undefined || (attr.name !== GLOBAL_STAMP && dataClass !== DELETED_RECORDS))
    return undefined
  if (kind !== 'storage' || !allowed.includes(attr.type ?? ''))
    return `change tracking needs "${attr.name}" to be a storage attribute of type ${allowed.join(' or ')}`
  if (attr.name === GLOBAL_STAMP && dataClass === DELETED_RECORDS)
    return `"${DELETED_RECORDS}" is not tracked itself`
  return undefined
}

/** The fields `__DeletedRecords` lacks, as the model declares it. */
export function missingDeletedFields(json: DataClassJson): string[] {
  const names = new Set(json.attributes.map((a) => a.name))
  return Object.keys(DELETED_TYPES).filter((n) => !names.has(n))
}

/**
 * `__DeletedRecords` as 4D's structure editor creates it (and 4D for iOS's project tools): an
 * autoincremented 64-bit `ID` key, then the four fields. Not exposed to the web but through REST,
 * as any dataclass.
 */
export function deletedRecordsJson(tableNumber: number): DataClassJson {
  return {
    name: DELETED_RECORDS,
    tableNumber,
    attributes: [
      { name: 'ID', kind: 'storage', type: 'long64', autosequence: true, indexed: true },
      { name: DELETED_FIELDS.stamp, kind: 'storage', type: 'long64', indexed: true },
      { name: DELETED_FIELDS.tableNumber, kind: 'storage', type: 'long' },
      { name: DELETED_FIELDS.tableName, kind: 'storage', type: 'string' },
      { name: DELETED_FIELDS.primaryKey, kind: 'storage', type: 'string' },
    ],
    key: [{ name: 'ID' }],
  }
}
