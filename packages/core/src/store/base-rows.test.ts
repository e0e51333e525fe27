import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/datastore.js'
import type { ModelJson } from '../schema/model-json.js'

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
