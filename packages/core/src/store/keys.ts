/** @module Primary keys: turning a key as written (URL text, JSON value) into the stored key value. */
import { datastoreError } from '../errors/datastore-error.js'
import type { DataClassDef } from '../schema/definitions.js'
import { CoercionError, coerceToType } from '../values/coerce.js'
import type { KeyValue } from './entity-record.js'

/**
 * The key value for `raw` in `dc`, coerced to the key attribute's type (`"3"` → 3 for a long key,
 * any uuid spelling → 32 uppercase hex digits). Throws InvalidKey (1541) when it cannot be one.
 */
export function toKey(dc: DataClassDef, raw: unknown): KeyValue {
  try {
    const v = coerceToType(
      dc.key.type,
      typeof raw === 'string' && dc.key.type !== 'string' ? raw.trim() : raw,
    )
    if (v === null) throw new CoercionError('a key cannot be null')
    return v as KeyValue
  } catch (e) {
    if (!(e instanceof CoercionError)) throw e
    throw datastoreError('InvalidKey', [String(raw), dc.name, e.message])
  }
}

/** The key as 4D writes it in `__KEY`: always text. */
export const keyText = (key: KeyValue): string => String(key)
