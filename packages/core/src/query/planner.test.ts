import { describe, expect, it, vi } from 'vitest'
import { createDatastore, type ModelJson } from '../index.js'
import { SortedIndex } from '../indexes/sorted-index.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'code', type: 'string', indexed: true, indexKind: 'sorted' },
        { name: 'qty', type: 'long', indexed: true, indexKind: 'sorted' },
      ],
    },
  ],
}

const items = Array.from({ length: 50 }, (_, i) => ({
  ID: i + 1,
  code: `C${String(i).padStart(2, '0')}`,
  qty: i % 10,
}))

describe('the planner’s ranges', () => {
  it('searches a pair of bounds once, both at a time', () => {
    const ds = createDatastore(model, { data: { Item: items } })
    ds.buildIndexes()
    const range = vi.spyOn(SortedIndex.prototype, 'range')
    const found = ds.dataClass('Item').query("code >= 'c10' and code < 'C15' and qty >= 0")
    expect([...found.rowIds].map((r) => items[r]!.code)).toEqual([
      'C10',
      'C11',
      'C12',
      'C13',
      'C14',
    ])
    // One search of the code's two bounds, one of qty's lower bound alone: no bound searched
    // alone and then again with its partner.
    expect(range.mock.calls.map(([lower, upper]) => [lower?.key, upper?.key])).toEqual([
      ['c10', 'c15'],
      [0, undefined],
    ])
    range.mockRestore()
  })

  it('gives each bound of three its own partner’s range, whichever drives', () => {
    const ds = createDatastore(model, { data: { Item: items } })
    ds.buildIndexes()
    const Item = ds.dataClass('Item')
    const codes = (text: string) => [...Item.query(text).rowIds].map((r) => items[r]!.code)
    const want = ['C02', 'C03', 'C04']
    for (const text of [
      "code > 'C01' and code < 'C20' and code < 'C05'",
      "code < 'C05' and code > 'C01' and code < 'C20'",
      "code < 'C20' and code < 'C05' and code > 'C01'",
      "code > 'C01' and code > 'C00' and code < 'C05'",
    ])
      expect(codes(text), text).toEqual(want)
  })
})
