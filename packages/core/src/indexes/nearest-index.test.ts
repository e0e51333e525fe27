/**
 * The approximate indexes of vector attributes kept in step with the data, and the searches that
 * ask for approximation (an Entistore extension: docs/vectors.md). The index here is a brute-force
 * one that keeps only every other row it is given, so that a search it answers is told apart from
 * an exact scan; the package adapter (hnswlib-node) is tested in the entistore package.
 */
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
import { Vector } from '../values/vector.js'
import type { NearestIndex, NearestIndexSpec } from './nearest-index.js'

/** Holds the vectors of odd row ids only: what it answers is visibly its own. */
function oddRowsIndex(made: NearestIndexSpec[]) {
  return (spec: NearestIndexSpec): NearestIndex => {
    made.push(spec)
    const rows = new Map<number, Vector>()
    return {
      description: 'odd rows (test)',
      add: (rowId, floats) => {
        if (rowId % 2 === 1) rows.set(rowId, new Vector(floats))
      },
      remove: (rowId) => void rows.delete(rowId),
      search: (query, k) => {
        const q = new Vector(query)
        return [...rows]
          .map(([r, v]) => [r, q.cosineSimilarity(v)] as const)
          .sort((a, b) => b[1] - a[1])
          .slice(0, k)
          .map(([r]) => r)
      },
    }
  }
}

function store(withIndex = true) {
  const made: NearestIndexSpec[] = []
  const ds = createDatastore(
    {
      __NAME: 'n',
      dataClasses: [
        {
          name: 'Doc',
          attributes: [
            { name: 'ID', type: 'long', autosequence: true },
            { name: 'embedding', type: 'object', classID: '4D.Vector' },
          ],
        },
      ],
    },
    withIndex ? { nearestIndex: oddRowsIndex(made) } : {},
  )
  // Row ids 0..9, keys 1..10, all near the x axis.
  ds.loadData({
    Doc: Array.from({ length: 10 }, (_, i) => ({ ID: i + 1, embedding: [1, i / 100, 0] })),
  })
  const Doc = ds.dataClass('Doc')
  const keys = (comparison: object) =>
    Doc.query('embedding >= :1', { vector: [1, 0, 0], threshold: 0.9, ...comparison })
      .toArray()
      .map((e) => e.get('ID'))
  return { ds, Doc, made, keys }
}

describe('approximate searches', () => {
  it('scan exactly until the index is built, then read it; exact unless asked', async () => {
    const { ds, Doc, made, keys } = store()
    const plan = () =>
      JSON.stringify(
        Doc.run('embedding >= :1', {
          params: [{ vector: [1, 0, 0], approximate: true, ef: 5 }],
          queryPlan: true,
        }).queryPlan,
      )
    // The first search asks for the index: it is being built, so this one scans.
    expect(plan()).toContain('exact: its approximate index is being built (0 of 10 rows)')
    expect(keys({ approximate: true })).toHaveLength(10)
    expect(made).toEqual([
      { dataClass: 'Doc', attribute: 'embedding', dims: 3, metric: 'cosine', capacity: 1024 },
    ])
    await ds.nearest.ready(Doc.def, Doc.def.storage[1]!, 'cosine')
    expect(plan()).toContain('approximate: odd rows (test), ef 5')
    // Keys 2, 4, … are the odd row ids: the index answers, its ef nearest.
    expect(keys({ approximate: true, ef: 3 })).toEqual([2, 4, 6])
    expect(keys({ approximate: true })).toEqual([2, 4, 6, 8, 10])
    expect(keys({})).toHaveLength(10)
  })

  it('follows writes: an insert, an update that moves a vector away, a delete', async () => {
    const { ds, Doc, keys } = store()
    keys({ approximate: true })
    await ds.nearest.ready(Doc.def, Doc.def.storage[1]!, 'cosine')
    Doc.create({ ID: 11, embedding: [1, 0, 0] }) // row id 10: even, not kept by this index
    Doc.create({ ID: 12, embedding: [1, 0, 0] }) // row id 11
    Doc.update(2, { embedding: [0, 1, 0] }) // row id 1, now far
    Doc.drop(4) // row id 3
    expect(keys({ approximate: true })).toEqual([6, 8, 10, 12])
  })

  it('a restore of the data drops the indexes: the next search builds them again', async () => {
    const { ds, Doc, made, keys } = store()
    const before = ds.snapshot()
    keys({ approximate: true })
    await ds.nearest.ready(Doc.def, Doc.def.storage[1]!, 'cosine')
    Doc.drop(2)
    ds.restore(before)
    expect(keys({ approximate: true })).toHaveLength(10) // scanning while it is built again
    expect(made).toHaveLength(2)
  })

  it('without an index package, scans exactly and says why', () => {
    const { Doc } = store(false)
    const result = Doc.run('embedding >= :1', {
      params: [{ vector: [1, 0, 0], approximate: true }],
      queryPlan: true,
    })
    expect(JSON.stringify(result.queryPlan)).toContain(
      'exact: no approximate index package installed',
    )
    expect(result.selection.length).toBe(10)
  })

  it('refuses a malformed approximation', () => {
    const { Doc } = store()
    const refusal = (comparison: object) => {
      try {
        Doc.query('embedding >= :1', { vector: [1, 0, 0], ...comparison }).length
        return 'accepted'
      } catch (e) {
        return (e as Error).message
      }
    }
    expect(refusal({ approximate: 'yes' })).toMatch(/"approximate" .* must be true or false/)
    expect(refusal({ approximate: true, ef: 0 })).toMatch(/"ef" .* integer from 1 to 10000/)
    expect(refusal({ ef: 10 })).toMatch(/"ef" .* needs "approximate": true/)
  })
})
