/**
 * 4D 21's vectors over REST, as its pages describe them:
 * - 4d/docs versioned_docs/version-21-R2/REST/$filter.md, "Vector similarity":
 *   `$filter="VectorAtt>=:1"&$params='[{vector:[1,2,3],threshold:1}]'`, metrics cosine (default),
 *   dot, euclidean, threshold 0.5 by default, comparators `<`, `<=`, `>`, `>=`;
 * - versioned_docs/version-21-R4/REST/$orderby.md, Example 2: `$orderby="vectorAttribute desc"`
 *   after a vector filter sorts by similarity;
 * - versioned_docs/version-21-R4/API/DataClassClass.md, "Query by vector similarity" and its
 *   Example 4: the order is the metric's score, so ascending puts the nearest first for euclidean;
 * - docs/API/DataClassClass.md, `.attributeName` `classID` (an object attribute restricted to a class).
 * The JSON form of a vector is not documented: an array of numbers (docs/compat.md).
 */
import { describe, expect, it } from 'vitest'
import { createDatastore } from '@entistore/core'
import { createRestHandler } from '../handler.js'

function server() {
  const ds = createDatastore({
    __NAME: 'docs',
    dataClasses: [
      {
        name: 'Doc',
        attributes: [
          { name: 'ID', type: 'long', autosequence: true },
          { name: 'title', type: 'string' },
          { name: 'embedding', type: 'object', classID: '4D.Vector' },
        ],
      },
    ],
  })
  ds.loadData({
    Doc: [
      { ID: 1, title: 'x axis', embedding: [1, 0, 0] },
      { ID: 2, title: 'near x', embedding: [0.9, 0.1, 0] },
      { ID: 3, title: 'y axis', embedding: [0, 1, 0] },
      { ID: 4, title: 'none' },
    ],
  })
  const rest = createRestHandler(ds)
  const call = async (path: string, init?: RequestInit) => {
    const res = await rest.request(path, init)
    return { status: res.status, json: (await res.json()) as Record<string, any> }
  }
  const post = (path: string, body: unknown) =>
    call(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  return { ds, call, post }
}

const keys = (json: Record<string, any>) =>
  (json.__ENTITIES as { __KEY: string }[]).map((e) => e.__KEY)
const search = (params: string, extra = '') =>
  `/rest/Doc?$filter="embedding>=:1"&$params='${encodeURIComponent(params)}'${extra}`

describe('vectors over REST', () => {
  it('the catalog keeps classID; an entity reads its vector as an array of numbers', async () => {
    const { call } = server()
    const catalog = await call('/rest/$catalog/Doc')
    expect(catalog.json.attributes[2]).toMatchObject({
      name: 'embedding',
      type: 'object',
      classID: '4D.Vector',
    })
    const doc = await call('/rest/Doc(2)')
    expect(doc.json.embedding).toEqual([0.9, 0.1, 0])
    expect((await call('/rest/Doc(4)')).json.embedding).toBeNull()
  })

  it('$filter by similarity with $params, as 4D documents it (bare keys too), combined and on an entity set', async () => {
    const { call } = server()
    expect(keys((await call(search('[{"vector":[1,0,0],"threshold":0.8}]'))).json)).toEqual([
      '1',
      '2',
    ])
    // 4D's page writes the keys bare, as 4D code does.
    expect(keys((await call(search('[{vector:[1,0,0],threshold:0.8}]'))).json)).toEqual(['1', '2'])
    expect(
      keys(
        (
          await call(
            search('[{"vector":[1,0,0],"metric":"euclidean","threshold":0.2}]').replace('>=', '<'),
          )
        ).json,
      ),
    ).toEqual(['1', '2'])
    const both = `/rest/Doc?$filter="embedding>=:1 and title=:2"&$params='${encodeURIComponent('[{"vector":[1,0,0]},"near@"]')}'`
    expect(keys((await call(both)).json)).toEqual(['2'])
    const set = await call('/rest/Doc?$method=entityset&$filter="ID<=3"')
    const id = (set.json.__ENTITYSET as string).split('/').at(-1)
    const inSet = await call(
      `/rest/Doc/$entityset/${id}?$filter="embedding>=:1"&$params='[{"vector":[0,1,0]}]'`,
    )
    expect(keys(inSet.json)).toEqual(['3'])
  })

  it('$orderby by similarity after the filter, nearest first with desc', async () => {
    const { call } = server()
    const ordered = await call(
      search('[{"vector":[0,1,0],"threshold":-1}]', '&$orderby="embedding desc"&$top=2'),
    )
    expect(keys(ordered.json)).toEqual(['3', '2'])
    // On an entity set too: the set narrowed by the search, in its order.
    const set = await call('/rest/Doc?$method=entityset&$filter="ID>1"')
    const id = (set.json.__ENTITYSET as string).split('/').at(-1)
    const inSet = await call(
      `/rest/Doc/$entityset/${id}?$filter="embedding>=:1"&$params='[{"vector":[1,0,0],"threshold":-1}]'&$orderby="embedding desc"`,
    )
    expect(keys(inSet.json)).toEqual(['2', '3'])
  })

  it('$orderby after a euclidean filter sorts by the distance: ascending puts the nearest first', async () => {
    // 4D 21 R4, API/DataClassClass.md "Query by vector similarity": the order is the metric's own
    // score, ascending by default; for euclidean "the default ascending order ... is appropriate"
    // (its Example 4: `embedding < :1 order by embedding` with mk euclidean).
    const { call } = server()
    const euclidean = (order: string) =>
      call(
        search(
          '[{"vector":[1,0,0],"metric":"euclidean","threshold":2}]',
          `&$orderby="${order}"`,
        ).replace('>=', '<'),
      )
    // Distances to [1,0,0]: 1 → 0, 2 → 0.14, 3 → 1.41.
    expect(keys((await euclidean('embedding')).json)).toEqual(['1', '2', '3'])
    expect(keys((await euclidean('embedding asc')).json)).toEqual(['1', '2', '3'])
    expect(keys((await euclidean('embedding desc')).json)).toEqual(['3', '2', '1'])
  })

  it('refuses with 400 and __ERROR: a vector of the wrong size, a bad metric, an order without a vector filter, a wrong comparator', async () => {
    const { call } = server()
    for (const [path, message] of [
      [search('[{"vector":[1,0]}]'), 'has 2 dimensions, a stored one 3'],
      [search('[{"vector":[1,0,0],"metric":"hamming"}]'), 'unknown metric "hamming"'],
      [search('[{"threshold":0.8}]'), 'has no "vector"'],
      [search('[{"vector":[1,0,0]}]').replace('>=', '='), 'compare its similarity with'],
      ['/rest/Doc?$orderby="embedding desc"', 'similarity to the vector of a filter'],
    ] as const) {
      const res = await call(path)
      expect(res.status, path).toBe(400)
      expect(res.json.__ERROR[0].message).toContain(message)
    }
  })

  it('writes a vector from an array; refuses one that is not, writing nothing', async () => {
    const { post, call } = server()
    const made = await post('/rest/Doc?$method=update', { title: 'new', embedding: [0.5, 0.25, 1] })
    expect(made.status).toBe(200)
    expect(made.json.embedding).toEqual([0.5, 0.25, 1])
    const bad = await post('/rest/Doc?$method=update', {
      __KEY: '1',
      __STAMP: 1,
      embedding: [1, 'x', 0],
    })
    expect(bad.json.__ERROR[0].message).toContain('not a vector')
    expect((await call('/rest/Doc(1)')).json.embedding).toEqual([1, 0, 0])
  })
})
