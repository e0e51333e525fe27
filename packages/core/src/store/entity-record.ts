/**
 * @module The stored form of an entity: one immutable object per version. A save makes a new record;
 * readers holding the old one keep a consistent view (and immer drafts build on that). A table
 * stores each version as an Entity (entity.ts), which is this record with its dataclass's methods.
 */
import type { StoredValue } from '../values/coerce.js'
import type { KeyValue } from '../values/value-types.js'

export type { KeyValue }

/**
 * Attribute values by storage attribute name. Every storage attribute of the dataclass is an own
 * property (null when empty), so a read never reaches Object.prototype; and no attribute can be
 * called `__proto__` (model names cannot start with `__`).
 */
export type StoredValues = Readonly<Record<string, StoredValue>>

export interface EntityRecord {
  /** The slot of the entity in its table; never reused, so a stale reference reads as "deleted". */
  readonly rowId: number
  readonly key: KeyValue
  /** Starts at 1 and grows by one at every save (4D's `__STAMP`). */
  readonly stamp: number
  /** Time of the last save, in epoch milliseconds from the datastore's clock. */
  readonly timestamp: number
  readonly values: StoredValues
}
