/**
 * What the index tests check: every index of a set equals the same index rebuilt from the live
 * records (index-set.prop.test.ts, pool-build.prop.test.ts).
 */
import { expect } from 'vitest'
import type { DataClassDef } from '../schema/definitions.js'
import { IndexSet } from './index-set.js'
import type { IndexSource } from './index-entry.js'

/** What the check reads of a table (the store's Table is one; the index layer cannot name it). */
export type IndexedTable = IndexSource & { readonly def: DataClassDef; readonly indexes: IndexSet }

export function hashContent(ix: { entries(): IterableIterator<[unknown, number[]]> }) {
  return [...ix.entries()]
    .map(([k, rows]) => [k, [...rows].sort((a, b) => a - b)] as const)
    .sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : 0))
}

export function sortedContent(ix: {
  size: number
  keyAt(p: number): unknown
  rowAt(p: number): number
}) {
  return Array.from({ length: ix.size }, (_, p) => [ix.keyAt(p), ix.rowAt(p)])
}

/**
 * Every index of `indexes` equals the same index rebuilt from the live records. Indexes a deferred
 * bulk change left unbuilt stay so (checking would build them, and the commands after must meet
 * them unbuilt): queries build them one by one, `Build` all at once, and then they are checked.
 */
export function expectIndexesRebuilt(table: IndexedTable, indexes: IndexSet = table.indexes): void {
  if (indexes.unbuilt > 0) return
  const fresh = new IndexSet(table.def, table)
  for (const ix of indexes.all())
    fresh.create(ix.attribute, ix.hash ? (ix.sorted ? 'auto' : 'hash') : 'sorted')
  fresh.rebuild(table)
  const names = [...indexes.all()].map((ix) => ix.attribute.name)
  expect(names.sort()).toEqual([...fresh.all()].map((ix) => ix.attribute.name).sort())
  for (const ix of indexes.all()) {
    const name = ix.attribute.name
    const other = fresh.of(name)!
    expect(!!ix.hash, name).toBe(!!other.hash)
    expect(!!ix.sorted, name).toBe(!!other.sorted)
    if (ix.hash) {
      expect(hashContent(ix.hash), `hash ${name}`).toEqual(hashContent(other.hash!))
      for (const [, rows] of ix.hash.entries())
        expect(rows.length, `empty bucket in ${name}`).toBeGreaterThan(0)
    }
    if (ix.sorted)
      expect(sortedContent(ix.sorted), `sorted ${name}`).toEqual(sortedContent(other.sorted!))
  }
}
