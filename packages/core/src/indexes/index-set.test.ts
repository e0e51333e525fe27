/**
 * An update moves the indexes of the attributes it changed, whichever way the index set finds them:
 * a compiled comparison of the indexed attributes (up to 31), or a loop past that
 * (values/compiled-fields.ts). The model-based test (index-set.prop.test.ts) runs the first.
 */
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'

const modelOf = (indexed: number) => ({
  dataClasses: [
    {
      name: 'Wide',
      attributes: [
        { name: 'ID', type: 'long' },
        ...Array.from({ length: indexed }, (_, i) => ({
          name: `f${i}`,
          type: 'long',
          indexed: true,
          indexKind: i % 2 ? 'hash' : 'sorted',
        })),
      ],
      key: [{ name: 'ID' }],
    },
  ],
})

describe('an update of indexed attributes', () => {
  for (const indexed of [4, 31, 40])
    it(`moves the indexes of what it changed, and only those (${indexed} indexed)`, () => {
      const row = (id: number) =>
        Object.fromEntries([
          ['ID', id],
          ...Array.from({ length: indexed }, (_, i) => [`f${i}`, id * 100 + i]),
        ])
      const ds = createDatastore(modelOf(indexed), { data: { Wide: [row(1), row(2)] } })
      ds.buildIndexes()
      const Wide = ds.dataClass('Wide')
      const last = `f${indexed - 1}`
      Wide.update(2, { f0: 7, f1: 8, [last]: 9 })
      expect(Wide.query('f0 = 7').toCollection('ID')).toEqual([{ ID: 2 }])
      expect(Wide.query('f1 = 8').toCollection('ID')).toEqual([{ ID: 2 }])
      expect(Wide.query(`${last} = 9`).toCollection('ID')).toEqual([{ ID: 2 }])
      expect(Wide.query('f0 = 200').length).toBe(0)
      expect(Wide.query(`${last} = :1`, 200 + indexed - 1).length).toBe(0)
      // Untouched: still found by their value.
      expect(Wide.query('f2 = 202').toCollection('ID')).toEqual([{ ID: 2 }])
      expect(Wide.query('f0 = 100').toCollection('ID')).toEqual([{ ID: 1 }])
    })
})
