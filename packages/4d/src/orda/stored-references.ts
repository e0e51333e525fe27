/**
 * @module Entities and entity selections in `Session.storage`, as 4D code keeps them there
 * (`Session.storage.mine:=ds.Note.query(…).copy(ck shared)`, read back in a restrict). Core's
 * session storage holds JSON only, so that every process of a session reads what was stored
 * (session-storage.ts); an ORDA object is stored as a reference that JSON carries — its
 * dataclass and its key(s), `{"$entity": "Note", "key": 3}`, `{"$entitySelection": "Note",
 * "keys": [3, 5]}` — and read back as an entity or a selection of those keys, in that order, read
 * as the reader reads (its view: an entity dropped since, or one it may not see, is not there).
 * A selection read back cannot be changed, as 4D's shareable selections cannot.
 */
import { Entity, EntitySelection, type Datastore } from '@entistore/core'

const ENTITY = '$entity'
const SELECTION = '$entitySelection'

/** `value` (a value of core) with its entities and selections as references, recursively. */
export function toStored(value: unknown): unknown {
  if (value instanceof Entity) return { [ENTITY]: value.dataClass.name, key: value.getKey() }
  if (value instanceof EntitySelection)
    return {
      [SELECTION]: value.dataClass.name,
      keys: value.toArray().map((e) => (e as Entity).getKey()),
    }
  if (Array.isArray(value)) return value.map(toStored)
  if (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype
  )
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toStored(v)]))
  return value
}

/**
 * A value read from the storage with its references made entities and selections again (in a
 * collection too); an object that is no reference stays as it is (a StorageHandle wraps it).
 */
export function revive(value: unknown, datastore: Datastore): unknown {
  if (Array.isArray(value))
    return value.some((x) => isReference(x))
      ? value.map((x) => (isReference(x) ? fromStored(x, datastore) : x))
      : value
  return isReference(value) ? fromStored(value, datastore) : value
}

const isReference = (v: unknown): v is object =>
  typeof v === 'object' && v !== null && (ENTITY in v || SELECTION in v)

/** The entity or selection a stored object refers to, or undefined for any other object. */
export function fromStored(
  value: object,
  datastore: Datastore,
): Entity | EntitySelection | null | undefined {
  const v = value as Record<string, unknown>
  if (typeof v[ENTITY] === 'string') return datastore.dataClass(v[ENTITY]).get(v.key)
  if (typeof v[SELECTION] === 'string' && Array.isArray(v.keys)) {
    const dc = datastore.dataClass(v[SELECTION])
    const selection = dc.newSelection({ keepOrder: true })
    for (const key of v.keys) {
      const entity = dc.get(key)
      if (entity !== null) selection.add(entity)
    }
    return selection.copy({ shared: true })
  }
  return undefined
}
