/**
 * @module Finding the row of an entity by its primary key as a caller gives it (`dc.get(key)`): as
 * given first, then as the key's type reads it ("3" for a numeric key, a uuid spelled with
 * dashes). A REST read by key goes through here each time, so the key's type is read once, when
 * the dataclass is made, and a key needing no conversion costs one map lookup. Takes the dataclass
 * by what it reads of it (its `restrict` and its entities), which DataClass has: the class reads
 * by key through this file.
 */
import type { Table } from '../../store/table.js'
import { toKey } from '../../store/keys.js'
import { visible } from '../restrict/restrict.js'
import type { RestrictedClass } from '../restrict/restricted-class.js'

/** A dataclass as a read by key reads it: restrict's, and the entity in a row. */
export interface KeyedClass<E> extends RestrictedClass {
  entityAt(rowId: number): E | null
}

// Key types whose stored keys are numbers a text of digits converts to as it reads.
const DIGIT_KEY_TYPES: ReadonlySet<string> = new Set(['long', 'long64', 'number', 'word', 'byte'])

/** The rows of one table by key, read as a caller spells the key. */
export class KeyLookup {
  readonly #table: Table
  // How the keys are stored: numbers, texts, or anything else (uuids).
  readonly #storedKey: 'number' | 'string' | 'other'
  // Whether a text of digits converts to a stored key.
  readonly #digitKeys: boolean
  // The table's index by key (its Map: looked up without a call through the table).
  readonly #byKey: Table['byKey']

  constructor(table: Table) {
    this.#table = table
    this.#byKey = table.byKey
    const keyType = table.def.key.type
    this.#storedKey = keyType === 'string' ? 'string' : keyType === 'uuid' ? 'other' : 'number'
    this.#digitKeys = DIGIT_KEY_TYPES.has(keyType)
  }

  /** The committed entity `key` names in `dc`, or null (none, or `restrict` hides it). */
  find<E>(dc: KeyedClass<E>, key: unknown): E | null {
    const rowId = this.rowIdOf(dc, key)
    return rowId < 0 ? null : dc.entityAt(rowId)
  }

  /**
   * The row of the committed entity `key` names in `dc`, or -1 (none, or `restrict` hides it):
   * what `find` reads, for a reader that makes no entity of it (a REST read rendered from the
   * load's columns).
   */
  rowIdOf(dc: RestrictedClass, key: unknown): number {
    // A text given for a numeric key (every REST read by key: the key comes from the URL) cannot
    // be a stored key: it goes to its conversion without a lookup first, which missed a Map of
    // every key, mostly in memory no cache held (a quarter of a microsecond).
    if (typeof key === 'string' && this.#digitKeys) return this.#coerced(dc, key)
    // The key as given first: a stored key is found as it is (Map keys compare by SameValueZero,
    // so 3 finds 3 and "3" does not), which is what coercion would have given.
    const hit = this.#byKey.get(key)
    if (hit === undefined) return this.#coerced(dc, key)
    return dc.restrictFunction === undefined || visible(dc, hit) ? hit : -1
  }

  // A miss, or a key to convert ("3" for a numeric key, a uuid spelled with dashes).
  #coerced(dc: RestrictedClass, key: unknown): number {
    // A key already in its stored form (an integer for a numeric key, text for a string key)
    // was looked up as it is: nothing to convert, nothing found.
    const stored =
      typeof key === 'number'
        ? this.#storedKey === 'number' && Number.isSafeInteger(key)
        : typeof key === 'string' && this.#storedKey === 'string'
    if (stored) return -1
    // A key spelled as the integer it is, found under that integer: the conversion's trim and
    // checks would give the same, and cost a REST read by key 6% of its time. A miss goes on to
    // the conversion, which says why a key it refuses is wrong.
    if (typeof key === 'string' && this.#digitKeys) {
      const n = Number(key)
      const rowId = Number.isSafeInteger(n) && String(n) === key ? this.#byKey.get(n) : undefined
      if (rowId !== undefined) return visible(dc, rowId) ? rowId : -1
    }
    const rowId = this.#byKey.get(toKey(this.#table.def, key))
    return rowId === undefined || !visible(dc, rowId) ? -1 : rowId
  }
}
