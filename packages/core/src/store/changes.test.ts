import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
import { BatchState } from './changes.js'

const ds = createDatastore({
  __NAME: 'batch',
  dataClasses: [
    { name: 'Item', attributes: [{ name: 'ID', type: 'long' }] },
    { name: 'Tag', attributes: [{ name: 'code', type: 'string' }], key: [{ name: 'code' }] },
  ],
})
// A row already stored: a key the table holds is taken too.
ds.loadData({ Item: [{ ID: 7 }] })
const items = ds.store.table('Item')
const tags = ds.store.table('Tag')

describe('BatchState keys', () => {
  it('claims a key once, refusing those claimed in the batch and those the table holds, of every kind', () => {
    const batch = new BatchState()
    // Small integers (kept as bits), past 2^26, negative, fractional, texts (kept in a Set).
    const keys = [0, 1, 31, 32, 1000, 2 ** 26 - 1, 2 ** 26, 2 ** 40, -1, 2.5]
    for (const k of keys) expect(batch.claimKey(items, k)).toBe(true)
    for (const k of keys) expect(batch.claimKey(items, k)).toBe(false)
    for (const k of [2, 33, 999, 2 ** 26 + 1, -2, 3.5]) expect(batch.claimKey(items, k)).toBe(true)
    // The table's own row.
    expect(batch.claimKey(items, 7)).toBe(false)
    expect(batch.hasNewKey(items, 7)).toBe(false)
    // Per table, and a text is not the number it reads as.
    expect(batch.claimKey(tags, '5')).toBe(true)
    expect([batch.claimKey(tags, '5'), batch.claimKey(items, 5), batch.claimKey(tags, 5)]).toEqual([
      false,
      true,
      true,
    ])
  })

  it('gives back the keys a failed attempt claimed, and keeps those before it', () => {
    const batch = new BatchState()
    batch.claimKey(items, 3)
    expect(() =>
      batch.attempt(() => {
        batch.claimKey(items, 4)
        batch.claimKey(items, 2 ** 30)
        batch.claimKey(tags, 'x')
        throw new Error('refused')
      }),
    ).toThrow('refused')
    expect([3, 4, 2 ** 30].map((k) => batch.claimKey(items, k))).toEqual([false, true, true])
    expect(batch.claimKey(tags, 'x')).toBe(true)
  })
})
