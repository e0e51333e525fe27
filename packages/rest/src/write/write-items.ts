/**
 * @module The entities of a write body, read for the core: `__KEY` and `__STAMP` split from the
 * attribute values, the members a client echoes from a read (`__TIMESTAMP`, `uri`, …) dropped, and
 * every other name checked against what the REST interface shows (a hidden attribute does not exist
 * here, as in reads). Wire names stop at this file: the core gets a key, a stamp and values.
 */
import { toKey, fail, type DataClass, type KeyValue } from '@entistore/core'
import type { Permissions } from '../permissions.js'
import { isShown, shownNames } from '../serialize/entity.js'

/** One entity of a body, ready for the core. */
export interface WriteItem {
  /** Its position in the body (0 for a body that is one object). */
  readonly index: number
  /** `__KEY`, as the key of the dataclass: the item updates that entity. Absent: it creates one. */
  readonly key: KeyValue | undefined
  /** `__STAMP`: the update is refused unless the entity still has it. */
  readonly stamp: number | undefined
  /** Attribute values by name. */
  readonly values: Readonly<Record<string, unknown>>
}

/** Members of a read that a client may send back with an entity: they carry nothing to write. */
const ECHOED = new Set([
  '__entityModel',
  '__DATACLASS',
  '__TIMESTAMP',
  '__STATUS',
  '__ERROR',
  'uri',
])

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Whether `sent` is `current` as a read writes it (a date-only value between `!!`). */
function sameAsRead(current: unknown, sent: unknown): boolean {
  if (current === undefined) return false
  if (typeof sent === 'string' && /^!!.*!!$/.test(sent)) sent = sent.slice(2, -2)
  return JSON.stringify(current ?? null) === JSON.stringify(sent)
}

/** The objects of a body: one object, or an array of objects (checked before anything is written). */
export function bodyObjects(body: unknown, what: string): Record<string, unknown>[] {
  if (body === undefined) fail('BadRequestBody', [`the body is empty: ${what}`])
  const list = Array.isArray(body) ? body : [body]
  if (!isObject(body) && !Array.isArray(body))
    fail('BadRequestBody', [`expected an object or an array of objects: ${what}`])
  list.forEach((item, i) => {
    if (!isObject(item)) fail('BadRequestBody', [`item ${i} is not an object: ${what}`])
  })
  return list as Record<string, unknown>[]
}

/**
 * Reads one entity of a body. Throws (for this item only) on a bad `__KEY` (1541) or `__STAMP`,
 * and on a name that is not a visible attribute (1500).
 */
export function readWriteItem(
  dc: DataClass,
  raw: Record<string, unknown>,
  index: number,
  perms?: Permissions,
): WriteItem {
  // The key first, wherever it is in the object: an echoed computed value is compared with it.
  const rawKey = raw.__KEY
  const key = rawKey === null || rawKey === undefined ? undefined : toKey(dc.def, rawKey)
  // Refused for this item only (status 1, "Permission Error"), or the whole batch with $atomic.
  perms?.need(key === undefined ? 'create' : 'update', dc.name)
  let stamp: number | undefined
  const values: Record<string, unknown> = {}
  for (const name of Object.keys(raw)) {
    const v = raw[name]
    if (name === '__KEY') {
      continue
    } else if (name === '__STAMP') {
      if (v === null || v === undefined) continue
      if (!Number.isSafeInteger(v) || (v as number) < 0)
        fail('BadRequestBody', [`"__STAMP" must be a non-negative integer (item ${index})`])
      stamp = v as number
    } else {
      const attr = dc.def.attributesByName.get(name)
      if (!attr || !isShown(dc.datastore.schema, attr)) {
        if (!attr && ECHOED.has(name)) continue
        fail('UnknownAttribute', [name, dc.name, shownNames(dc)])
      }
      // A computed value sent back unchanged with an entity read earlier is an echo, not a write.
      // Only one the session may read: comparing with a value it may not read would answer
      // whether a guess is right (accepted as an echo, or refused as a write).
      if (
        (attr.kind === 'calculated' || attr.kind === 'alias') &&
        key !== undefined &&
        (perms === undefined || perms.mayRead(dc.def, attr))
      ) {
        if (sameAsRead(dc.get(key)?.get(name), v)) continue
      }
      // A creation needs `create` on each attribute it gives a value (null is the default), an
      // update `update` on each it sets (4D's attribute permissions; "ignored for alias
      // attributes": a write of an alias is refused as read-only, 1516, whatever the session).
      if (attr.kind !== 'alias') {
        if (key !== undefined) perms?.needUpdate(dc.name, name)
        else if (v !== null) perms?.needCreate(dc.name, name)
      }
      values[name] = v
    }
  }
  return { index, key, stamp, values }
}
