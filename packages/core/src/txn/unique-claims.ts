/**
 * @module The unique values a transaction's staged versions hold (its claims), and the check of a
 * value against them and the committed data: a value is taken if a staged version holds it, or a
 * committed one whose entity the transaction has not rewritten, so that a swap of two values
 * inside one transaction works.
 */
import type { Patch } from 'immer'
import { fail } from '../errors/datastore-error.js'
import type { StorageAttributeDef } from '../schema/definitions.js'
import type { Locate } from '../store/changes.js'
import type { EntityRecord, KeyValue } from '../store/entity-record.js'
import type { Table } from '../store/table.js'
import { describeValue } from '../values/coerce.js'
import { sortKey } from '../values/compare.js'

/** A transaction's claims: table → attribute → value key → entity key, and back. */
export class UniqueClaims {
  readonly #byTable = new Map<Table, Map<string, Claims>>()

  /** Forgets every claim (a rollback claims again what remains staged). */
  clear(): void {
    this.#byTable.clear()
  }

  // Unique attributes: a value is taken if a staged version holds it, or a committed one whose
  // entity this transaction has not rewritten (a swap of two values inside one transaction works).
  // A staged version holds a value it changed (a claim), or one it kept from the committed version
  // (its entity is the committed holder, and its staged values are read).
  // `staged`: the table's entities staged by the transaction. `only`: the attributes to check (an
  // update's changes), else all.
  check(
    table: Table,
    record: EntityRecord,
    where: Locate,
    staged: ReadonlyMap<KeyValue, { readonly current: EntityRecord | null }> | undefined,
    only?: ReadonlySet<string>,
  ): void {
    if (!table.hasUnique) return
    for (const attr of table.def.storage) {
      if (!checksUnique(table, attr, only)) continue
      const v = record.values[attr.name]
      if (v === null || v === undefined) continue
      const valueKey = sortKey(v, attr.type === 'string')
      const holder = this.#byTable.get(table)?.get(attr.name)?.byValue.get(valueKey)
      let taken = holder !== undefined && holder !== record.key
      if (!taken) {
        for (const rowId of table.indexes.hashOf(attr.name)?.get(valueKey) ?? []) {
          const other = table.record(rowId)
          if (!other || other.key === record.key) continue
          const rewritten = staged?.get(other.key)
          // Rewritten: taken only if its staged version kept the value (deleted: null).
          const kept = rewritten?.current?.values[attr.name]
          if (
            rewritten !== undefined &&
            (kept === null ||
              kept === undefined ||
              sortKey(kept, attr.type === 'string') !== valueKey)
          )
            continue
          taken = true
          break
        }
      }
      if (taken) {
        fail('UniqueViolation', [describeValue(v), attr.name, table.def.name], {
          details: { location: where(attr.name), attribute: attr.name },
        })
      }
    }
  }

  // `only`: the attributes whose claims change (an update's changes), else all.
  claim(
    table: Table,
    key: KeyValue,
    current: EntityRecord | null,
    only?: ReadonlySet<string>,
  ): void {
    if (!table.hasUnique || only?.size === 0) return
    let byAttr = this.#byTable.get(table)
    if (!byAttr) this.#byTable.set(table, (byAttr = new Map()))
    for (const attr of table.def.storage) {
      if (!checksUnique(table, attr, only)) continue
      let claims = byAttr.get(attr.name)
      if (!claims) byAttr.set(attr.name, (claims = { byValue: new Map(), byKey: new Map() }))
      if (claims.byKey.has(key)) {
        claims.byValue.delete(claims.byKey.get(key))
        claims.byKey.delete(key)
      }
      const v = current?.values[attr.name]
      if (v === null || v === undefined) continue
      const valueKey = sortKey(v, attr.type === 'string')
      claims.byValue.set(valueKey, key)
      claims.byKey.set(key, valueKey)
    }
  }
}

export const NONE: ReadonlySet<string> = new Set()

/**
 * The unique attributes (the key aside) whose values `patches` change, NONE when none: an update
 * of other attributes then checks and claims nothing, and makes no Set.
 */
export function uniqueChanged(table: Table, patches: readonly Patch[]): ReadonlySet<string> {
  let out: Set<string> | undefined
  for (const p of patches) {
    const name = p.path[0] as string
    const attr = table.def.attributesByName.get(name)
    if (attr?.kind === 'storage' && checksUnique(table, attr)) (out ??= new Set()).add(name)
  }
  return out ?? NONE
}

/** Whether `attr` is a unique attribute a transaction checks and claims (of `only`, when given). */
const checksUnique = (table: Table, attr: StorageAttributeDef, only?: ReadonlySet<string>) =>
  attr.unique === true && attr !== table.def.key && (only === undefined || only.has(attr.name))

interface Claims {
  readonly byValue: Map<unknown, KeyValue>
  readonly byKey: Map<KeyValue, unknown>
}
