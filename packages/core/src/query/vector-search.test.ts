/**
 * Vector similarity in queries, as 4D 21 documents it:
 * - 4d/docs versioned_docs/version-21-R2/REST/$filter.md, "Vector similarity": `attr op :n` with the
 *   placeholder's value `{ vector (mandatory), metric: "cosine" (default) | "dot" | "euclidean",
 *   threshold (default 0.5) }`, comparators `<`, `<=`, `>`, `>=` comparing the score with the
 *   threshold;
 * - docs/API/DataClassClass.md, "Query by vector similarity" (21 R4): the same in `query()`,
 *   combined with other conditions;
 * - versioned_docs/version-21-R4/REST/$orderby.md, Example 2 (21 R2): `order by attr desc` after a
 *   vector filter sorts by similarity; versioned_docs/version-21-R4/API/DataClassClass.md, the note
 *   of "Query by vector similarity" and Example 4: by the metric's score, ascending by default, so
 *   the nearest first for euclidean.
 */
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
import { dumpData } from '../store/dump-data.js'
import type { ModelJson } from '../schema/model-json.js'
import { Vector } from '../values/vector.js'

const model: ModelJson = {
  __NAME: 'docs',
  dataClasses: [
    {
      name: 'Doc',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'lang', type: 'string', indexed: true },
        { name: 'embedding', type: 'object', classID: '4D.Vector' },
      ],
    },
  ],
}

// Unit vectors at known angles from the x axis (cos of the angle is the cosine similarity).
const at = (deg: number, scale = 1): number[] => {
  const r = (deg * Math.PI) / 180
  return [Math.cos(r) * scale, Math.sin(r) * scale, 0]
}
const X = [1, 0, 0]

function docs() {
  const ds = createDatastore(model)
  ds.loadData({
    Doc: [
      { ID: 1, lang: 'en', embedding: at(0) },
      { ID: 2, lang: 'fr', embedding: at(30) }, // cos 0.866
      { ID: 3, lang: 'en', embedding: at(70, 3) }, // cos 0.342, dot 1.026
      { ID: 4, lang: 'en', embedding: at(120) }, // cos -0.5
      { ID: 5, lang: 'fr' }, // no vector
    ],
  })
  const ids = (query: string, ...params: unknown[]): unknown[] =>
    ds
      .dataClass('Doc')
      .query(query, ...params)
      .toArray()
      .map((e) => e.get('ID'))
  return { ds, ids }
}

describe('vector similarity in query()', () => {
  it('cosine by default, threshold 0.5 by default, each comparator against the threshold', () => {
    const { ids } = docs()
    expect(ids('embedding >= :1', { vector: X })).toEqual([1, 2])
    expect(ids('embedding > :1', { vector: X, threshold: 0.342 })).toEqual([1, 2, 3])
    expect(ids('embedding > :1', { vector: X, threshold: 0.9 })).toEqual([1])
    expect(ids('embedding < :1', { vector: X, threshold: 0.34 })).toEqual([4])
    expect(ids('embedding <= :1', { vector: X, threshold: 0.866 })).toEqual([3, 4])
    // A Vector or an array alone is the vector, with the defaults.
    expect(ids('embedding >= :1', new Vector(X))).toEqual([1, 2])
    expect(ids('embedding >= :1', X)).toEqual([1, 2])
  })

  it('dot and euclidean: the score of each metric against the threshold', () => {
    const { ids } = docs()
    expect(ids('embedding > :1', { vector: X, metric: 'dot', threshold: 1 })).toEqual([3])
    // Euclidean is a distance: `<` keeps the near ones.
    expect(ids('embedding < :1', { vector: X, metric: 'euclidean', threshold: 0.6 })).toEqual([
      1, 2,
    ])
  })

  it('combines with other conditions, and never matches an entity without a vector', () => {
    const { ids } = docs()
    expect(ids('embedding >= :1 and lang = :2', { vector: X, threshold: 0.3 }, 'en')).toEqual([
      1, 3,
    ])
    expect(ids('embedding >= :1 or lang = :2', { vector: X, threshold: 0.9 }, 'fr')).toEqual([
      1, 2, 5,
    ])
    expect(ids('not (embedding >= :1)', { vector: X })).toEqual([3, 4, 5])
    expect(ids('embedding = null')).toEqual([5])
  })

  it("orders by the metric's score after a vector filter: desc for the most similar by cosine or dot, ascending for the nearest by euclidean", () => {
    const { ids } = docs()
    const all = { vector: X, threshold: -1 }
    expect(ids('embedding >= :1 order by embedding desc', all)).toEqual([1, 2, 3, 4])
    expect(ids('embedding >= :1 order by embedding', all)).toEqual([4, 3, 2, 1])
    expect(ids('embedding > :1 order by embedding desc', { ...all, metric: 'dot' })).toEqual([
      3, 1, 2, 4,
    ])
    // Euclidean orders by the distance (distances 0, 0.52, 2.65, 1.73): the nearest first
    // ascending, as 4D's Example 4 writes it (`embedding < :1 order by embedding`).
    const euclidean = { vector: X, metric: 'euclidean', threshold: 0 }
    expect(ids('embedding >= :1 order by embedding', euclidean)).toEqual([1, 2, 4, 3])
    expect(ids('embedding >= :1 order by embedding desc', euclidean)).toEqual([3, 4, 2, 1])
  })

  it('answers a clear 9003 for a malformed comparison, a wrong size or a wrong comparator', () => {
    const { ds } = docs()
    const Doc = ds.dataClass('Doc')
    const refusal = (query: string, ...params: unknown[]) => {
      try {
        Doc.query(query, ...params).length
      } catch (e) {
        return `${(e as { errCode: number }).errCode} ${(e as Error).message}`
      }
      return 'accepted'
    }
    expect(refusal('embedding >= :1', { vector: [1, 0] })).toBe(
      '9003 Invalid comparison: the vector given for Doc.embedding has 2 dimensions, a stored one 3',
    )
    expect(refusal('embedding = :1', { vector: X })).toMatch(
      /^9003 .*compare its similarity with <, <=, > or >=/,
    )
    expect(refusal('embedding >= :1', { metric: 'cosine' })).toMatch(/^9003 .*has no "vector"/)
    expect(refusal('embedding >= :1', { vector: X, metric: 'manhattan' })).toMatch(
      /unknown metric "manhattan"/,
    )
    expect(refusal('embedding >= :1', { vector: X, threshold: '0.8' })).toMatch(
      /"threshold" .* must be a number/,
    )
    expect(refusal('embedding >= :1', { vector: X, thresold: 0.8 })).toMatch(
      /unknown property "thresold"/,
    )
    expect(refusal('embedding >= :1', { vector: [1, 'a', 0] })).toMatch(/numbers only/)
    expect(refusal('embedding >= 0.5')).toMatch(/^9003 .*needs a vector comparison/)
    expect(refusal('embedding >= :1 order by embedding desc', 'x')).toMatch(/^9003/)
    // Order by a vector with no vector filter: nothing to measure against.
    expect(refusal('lang = en order by embedding desc')).toMatch(
      /^1810 .*similarity to the vector of a filter/,
    )
  })

  it('shows the search in the plan', () => {
    const { ds } = docs()
    const result = ds.dataClass('Doc').run('embedding >= :1 and lang = en', {
      params: [{ vector: X, metric: 'dot', threshold: 0.8 }],
      queryPlan: true,
    })
    expect(JSON.stringify(result.queryPlan)).toContain(
      'Doc.embedding >= 0.8 (dot similarity to a vector of 3 dimensions)',
    )
  })
})

describe('vector attributes: stored, written and read back', () => {
  it('reads a vector as a Vector, writes one from an array, and refuses what is not a vector', () => {
    const { ds } = docs()
    const Doc = ds.dataClass('Doc')
    expect(Doc.get(2)!.get('embedding')).toBeInstanceOf(Vector)
    const made = Doc.create({ lang: 'de', embedding: [0.25, 0.5, 1] })
    expect((made.get('embedding') as Vector).toCollection()).toEqual([0.25, 0.5, 1])
    expect(() => Doc.update(made.getKey(), { embedding: { vector: 'no' } })).toThrow(/not a vector/)
    expect(() => Doc.update(made.getKey(), { embedding: [1, '2', 3] })).toThrow(/numbers only/)
    expect((Doc.get(made.getKey())!.get('embedding') as Vector).toCollection()).toEqual([
      0.25, 0.5, 1,
    ])
  })

  it('dumps as arrays of numbers that load back to the same vectors (snapshots and clones write this)', () => {
    const { ds } = docs()
    const file = dumpData(ds)
    const again = createDatastore(model)
    again.loadData(JSON.parse(JSON.stringify(file)))
    for (const key of [1, 2, 3, 4]) {
      const [a, b] = [ds, again].map((d) => d.dataClass('Doc').get(key)!.get('embedding') as Vector)
      expect(b!.equals(a!)).toBe(true)
    }
    expect(again.dataClass('Doc').get(5)!.get('embedding')).toBeNull()
  })

  it('keeps a vector of another size beside the column of a load', () => {
    const ds = createDatastore(model)
    ds.loadData({
      Doc: [
        { ID: 1, embedding: [1, 2] },
        { ID: 2, embedding: [1, 2, 3] },
      ],
    })
    const read = (k: number) =>
      (ds.dataClass('Doc').get(k)!.get('embedding') as Vector).toCollection()
    expect([read(1), read(2)]).toEqual([
      [1, 2],
      [1, 2, 3],
    ])
  })

  it('refuses a classID on an attribute that is not an object', () => {
    expect(() =>
      createDatastore({
        __NAME: 'x',
        dataClasses: [
          {
            name: 'A',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'v', type: 'string', classID: '4D.Vector' },
            ],
          },
        ],
      }),
    ).toThrow(/"classID" applies to object attributes, not string/)
  })
})
