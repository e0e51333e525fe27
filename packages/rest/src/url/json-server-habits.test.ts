// json-server's query parameters on a read of a dataclass (issue 66: `?views_gte=100&_sort=views
// &_order=desc&_page=1&_limit=2` answered 200 with every row): refused with 9023 and the 4D
// parameters that do their work; every other name without `$` ignored, as 4D does.
import { createDatastore, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'
import { parseQueryString } from './query-string.js'
import { isJsonServerName, jsonServerNames, translateHabits } from './json-server-habits.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Post',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'title', type: 'string' },
        { name: 'views', type: 'long' },
      ],
    },
  ],
}
const rest = createRestHandler(
  createDatastore(model, {
    data: {
      Post: [1, 2, 3, 4, 5].map((ID) => ({ ID, title: `post ${ID}`, views: ID * 50 })),
    },
  }),
)
const get = async (target: string, init?: RequestInit) => {
  const res = await rest.request(target, init)
  return { status: res.status, body: (await res.text()) || '{}' }
}
const error = (body: string) =>
  (JSON.parse(body) as { __ERROR: { errCode: number; message: string }[] }).__ERROR[0]!

describe('json-server parameters over REST', () => {
  it("answers the issue's request 400 9023 with the 4D query string that does its work", async () => {
    const { status, body } = await get(
      '/rest/Post?views_gte=100&_sort=views&_order=desc&_page=1&_limit=2',
    )
    expect(status).toBe(400)
    expect(error(body)).toEqual({
      errCode: 9023,
      componentSignature: 'enti',
      message:
        'json-server\'s parameters, which 4D ignores: views_gte → $filter="views >= 100"; ' +
        '_sort, _order → $orderby="views desc"; _page, _limit → $skip=0&$top=2. ' +
        'Did you mean ?$filter="views >= 100"&$orderby="views desc"&$skip=0&$top=2',
    })
    // What it points to answers what json-server would have.
    const fourD = await get(
      `/rest/Post?$filter=${encodeURIComponent('"views >= 100"')}&$orderby=${encodeURIComponent('"views desc"')}&$skip=0&$top=2&$attributes=ID`,
    )
    expect(JSON.parse(fourD.body).__ENTITIES.map((e: { ID: number }) => e.ID)).toEqual([5, 4])
  })

  it('refuses them on every read of a dataclass: one entity, a HEAD', async () => {
    expect((await get('/rest/Post(1)?_embed=comments')).status).toBe(400)
    expect((await get('/rest/Post?q=post', { method: 'HEAD' })).status).toBe(400)
  })

  it('ignores every other name without $, as 4D does: cache busters, tags', async () => {
    for (const query of ['_=1700000000', '_=1&$top=1', 'utm_source=mail', 'title=post%201', 'v=2'])
      expect((await get(`/rest/Post?${query}`)).status).toBe(200)
  })

  it('ignores them where no dataclass is read: the catalog, a write', async () => {
    expect((await get('/rest/$catalog?_sort=name')).status).toBe(200)
    const write = await get('/rest/Post?$method=update&_limit=1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ID: 6, title: 'new' }),
    })
    expect(write.status).toBe(200)
  })
})

describe('the rule: by name only', () => {
  it("takes json-server's own names and the names ending in its operators", () => {
    for (const name of ['_sort', '_order', '_page', '_limit', '_per_page', '_start', '_end'])
      expect(isJsonServerName(name)).toBe(true)
    for (const name of ['_embed', '_expand', 'q', 'views_gte', 'views_gt', 'id_ne', 'a.b_like'])
      expect(isJsonServerName(name)).toBe(true)
    for (const name of ['_', 'q2', 'title', 'utm_source', '_gte', 'callback', '$top', 'Q'])
      expect(isJsonServerName(name)).toBe(false)
    expect(jsonServerNames(parseQueryString('_=1&_sort=a&x=1&_sort=b&q=z'))).toEqual(['_sort', 'q'])
  })
})

describe('the translations', () => {
  const translated = (query: string) =>
    translateHabits(parseQueryString(query)).map((t) => `${t.habits.join(',')}: ${t.fourD}`)

  it('writes each operator as 4D compares; _like and q as an @ pattern', () => {
    expect(translated('views_gt=1&views_lte=9&id_ne=3&title_like=json%20server')).toEqual([
      `views_gt,views_lte,id_ne,title_like: $filter="views > 1 AND views <= 9 AND id != 3 AND title = '@json server@'"`,
    ])
    expect(translated("q=O'Reilly")).toEqual([`q: $filter="attribute = '@O\\'Reilly@'"`])
  })

  it('orders as json-server 0.17 (_order) and 1.0 (a minus) do', () => {
    expect(translated('_sort=user,views&_order=desc,asc')).toEqual([
      '_sort,_order: $orderby="user desc, views asc"',
    ])
    expect(translated('_sort=id,-views')).toEqual(['_sort: $orderby="id asc, views desc"'])
  })

  it('pages as json-server does: 10 a page by default, slices as Array.slice', () => {
    expect(translated('_page=3')).toEqual(['_page: $skip=20&$top=10'])
    expect(translated('_page=2&_per_page=25')).toEqual(['_page,_per_page: $skip=25&$top=25'])
    expect(translated('_start=20&_end=30')).toEqual(['_start,_end: $skip=20&$top=10'])
    expect(translated('_start=20&_limit=5')).toEqual(['_start,_limit: $skip=20&$top=5'])
    expect(translated('_limit=5')).toEqual(['_limit: $skip=0&$top=5'])
    expect(translated('_embed=comments&_expand=user')).toEqual([
      '_embed,_expand: $expand=comments,user',
    ])
  })
})
