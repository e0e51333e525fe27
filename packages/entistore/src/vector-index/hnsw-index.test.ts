/**
 * HNSW through hnswlib-node (an optional dependency, as sharp is): approximate searches answered
 * by it, kept in step with writes; without the package, searches stay exact and say why.
 */
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../persist/create-datastore.js'
import { hnswIndexes } from './hnsw-index.js'
import { DOCS_MODEL as MODEL } from './docs-model.fixture.js'

const installed = (() => {
  try {
    createRequire(import.meta.url)('hnswlib-node')
    return true
  } catch {
    return false
  }
})()

/** 2,000 vectors of 16 dimensions around 20 directions (a deterministic generator). */
function vectors(): number[][] {
  let seed = 7
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1
  const centres = Array.from({ length: 20 }, () => Array.from({ length: 16 }, rnd))
  return Array.from({ length: 2000 }, (_, i) => centres[i % 20]!.map((x) => x + 0.1 * rnd()))
}

describe('hnswIndexes', () => {
  it('is undefined when the package cannot be loaded', () => {
    expect(
      hnswIndexes(() => {
        throw new Error('Cannot find module')
      }),
    ).toBeUndefined()
  })

  it.skipIf(!installed)(
    'answers approximate searches with the exact top 10, and follows writes (needs hnswlib-node)',
    async () => {
      const rows = vectors()
      const ds = createDatastore(MODEL, {
        data: { Doc: rows.map((embedding) => ({ embedding })) } as never,
      })
      const Doc = ds.dataClass('Doc')
      const query = rows[5]!
      const top = (comparison: object) =>
        Doc.query('embedding >= :1 order by embedding desc', {
          vector: query,
          threshold: -1,
          ...comparison,
        })
          .window(0, 10)
          .toArray()
          .map((e) => e.getKey())
      const exact = top({})
      top({ approximate: true }) // starts the build
      await ds.nearest.ready(Doc.def, Doc.def.storage[1]!, 'cosine')
      const plan = JSON.stringify(
        Doc.run('embedding >= :1', {
          params: [{ vector: query, approximate: true, ef: 50 }],
          queryPlan: true,
        }).queryPlan,
      )
      expect(plan).toContain('approximate: HNSW (hnswlib-node, M=16, efConstruction=200), ef 50')
      expect(top({ approximate: true, ef: 50 })).toEqual(exact)
      // Writes reach it: the nearest one dropped, a new nearest one made.
      Doc.drop(exact[0]!)
      const made = Doc.create({ embedding: query })
      expect(top({ approximate: true, ef: 50 })[0]).toBe(made.getKey())
      expect(top({ approximate: true, ef: 50 })).not.toContain(exact[0])
    },
  )
})
