/**
 * Loading must be linear in the number of rows: no row may look back over the rows before it.
 * Work is counted (function calls and block executions of the core, see tools/work-meter.ts), not
 * timed, so the check is exact on a busy machine: loading 8n rows may cost 8× the work of n, plus
 * the n log n of sorting the sorted indexes, never the 64× of a quadratic path.
 */
import { describe, expect, it } from 'vitest'
import { countWork } from '../../../../tools/work-meter.ts'
import type { ModelJson } from '../schema/model-json.js'
import type { DataFile } from './load-data.js'

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Group',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'code', type: 'string', unique: true },
        { name: 'items', kind: 'relatedEntities', path: 'group' },
      ],
    },
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', indexed: true },
        { name: 'serial', type: 'string', unique: true },
        { name: 'price', type: 'number', indexed: true },
        { name: 'groupID', type: 'long', indexed: true },
        { name: 'group', kind: 'relatedEntity', path: 'Group', foreignKey: 'groupID' },
        { name: 'parent', kind: 'relatedEntity', path: 'Item' },
        { name: 'tag', kind: 'relatedEntity', path: 'Tag' },
      ],
    },
    {
      name: 'Tag',
      attributes: [
        { name: 'ID', type: 'uuid' },
        { name: 'label', type: 'string' },
      ],
    },
  ],
}

const GROUPS = 50

/** `n` items referring to groups and tags in every form a data file may use. */
function dataFile(n: number, form: 'foreignKey' | 'byName' | 'byKeyObject' | 'deferred'): DataFile {
  const hex = (i: number): string => i.toString(16).toUpperCase().padStart(32, '0')
  const groups = Array.from({ length: GROUPS }, (_, i) => ({ ID: i + 1, code: `g${i}` }))
  const tags = Array.from({ length: 20 }, (_, i) => ({ ID: hex(i + 1), label: `t${i}` }))
  const items = Array.from({ length: n }, (_, i) => {
    const group = 1 + (i % GROUPS)
    const row: Record<string, unknown> = {
      ID: i + 1,
      name: `Name ${i % 97}`,
      serial: `S-${i}`,
      price: (i * 7919) % 1000,
      tag: hex(1 + (i % 20)),
      // Every other item points to an item further down the file: checked after all rows.
      parent: i % 2 === 0 && i + 1 < n ? i + 2 : null,
    }
    if (form === 'foreignKey') row.groupID = group
    else if (form === 'byName') row.group = group
    else if (form === 'byKeyObject') row.group = { __KEY: group }
    else row.group = { __deferred: { uri: `/rest/Group(${group})`, __KEY: String(group) } }
    return row
  })
  // Items first: their references to groups and tags are all forward.
  return { Item: items, Group: groups, Tag: tags }
}

// Above the size at which a commit rebuilds sorted indexes once (a load of any real size).
const N = 1200

describe('loading is linear in the number of rows', () => {
  it.each(['foreignKey', 'byName', 'byKeyObject', 'deferred'] as const)(
    'with relations given %s',
    async (form) => {
      const small = dataFile(N, form)
      const large = dataFile(8 * N, form)
      // The core is imported through countWork only: see tools/work-meter.ts.
      const load = (data: DataFile) => async () => {
        const { createDatastore } = await import('../orda/objects/datastore.js')
        return () => {
          const ds = createDatastore(MODEL, { data })
          expect(ds.dataClass('Item').length).toBe(data.Item!.length)
        }
      }
      const work = await countWork('/packages/core/src/', load(small))
      const work8 = await countWork('/packages/core/src/', load(large))
      // 8 × (n log n growth of the index sorts) with 10 % slack: ≈ 11.3. A quadratic path is ≥ 40.
      const bound = 8 * (Math.log2(8 * N) / Math.log2(N)) * 1.1
      expect(work8 / work, `work ${work} → ${work8}`).toBeLessThan(bound)
    },
  )
})
