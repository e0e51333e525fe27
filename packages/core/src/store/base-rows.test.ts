import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
import type { ModelJson } from '../schema/model-json.js'
import { loadModel } from '../schema/load-model.js'
import type { StoredValue } from '../values/coerce.js'
import { BaseRows } from './base-rows.js'
import { TextPool } from './text-column.js'

// A full garbage collection without --expose-gc: the flag set at run time, gc taken from a fresh
// context (as bench/timing.ts does).
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const heapAfterGc = (): number => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Person',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
      ],
    },
  ],
}

describe('a load in batches', () => {
  // 300 batches of 1,000 rows, 200 distinct names of 48 characters: each batch's column lists its
  // 200 names. Were each list to hold the strings its batch was given, the load would keep 60,000
  // strings; sharing the load's, it keeps 200.
  it('keeps one string per distinct text across its batches, not one per batch', () => {
    const ds = createDatastore(model)
    const before = heapAfterGc()
    const load = ds.beginLoad()
    for (let b = 0; b < 300; b++) {
      const rows = Array.from({ length: 1000 }, (_, i) => ({
        ID: b * 1000 + i + 1,
        // A string made anew for every row, as JSON.parse makes them.
        name: `${'name '.repeat(9)}${String((b + i) % 200).padStart(3, '0')}`,
      }))
      load.add('Person', rows)
    }
    load.commit()
    const grown = heapAfterGc() - before
    expect(ds.Person!.get(1)?.get('name')).toBe(`${'name '.repeat(9)}000`)
    expect(ds.Person!.get(300_000)?.get('name')).toBe(`${'name '.repeat(9)}098`)
    // Measured: 1.3 MB so, 5.5 MB with a string per batch.
    expect(grown).toBeLessThan(3_000_000)
  })
})

describe('text columns that start in bytes', () => {
  const d = loadModel({
    dataClasses: [
      {
        name: 'Person',
        attributes: [
          { name: 'ID', type: 'long' },
          { name: 'code', type: 'string', unique: true },
          { name: 'city', type: 'string' },
          { name: 'note', type: 'string' },
        ],
      },
    ],
  }).dataClasses.find((c) => c.name === 'Person')!
  const at = (name: string): number => d.storage.findIndex((a) => a.name === name)
  const row = (i: number): StoredValue[] => [i, `C${i}`, i % 2 ? 'Paris' : 'Lyon', `note ${i}`]

  it('keeps a unique text in bytes from its first row, and a position gone to bytes from the next batch on', () => {
    const pool = new TextPool()
    const first = new BaseRows(d, 1, 100, pool)
    for (let i = 1; i <= 100; i++) first.setRow(i, row(i), 1, 0)
    // The notes are all distinct: past a quarter of the rows, the column left its list.
    expect(pool.bytesAt(at('note'))).toBeGreaterThanOrEqual('note 1'.length)
    // Two cities: a list. The code is unique: in bytes from the start, no list ever left.
    expect(pool.bytesAt(at('city'))).toBeUndefined()
    expect(pool.bytesAt(at('code'))).toBeUndefined()
    // A text of a list is the list's one string; one from bytes is made at each read.
    expect(first.value(7, at('city'))).toBe(first.value(9, at('city')))
    for (const i of [1, 50, 100]) expect(first.values(i)).toEqual(row(i))
    const second = new BaseRows(d, 101, 100, pool)
    for (let i = 101; i <= 200; i++) second.setRow(i, row(i), 1, 0)
    for (const i of [101, 150, 200]) expect(second.values(i)).toEqual(row(i))
  })
})
