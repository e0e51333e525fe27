// `$asArray` says its page and its total in headers (issue 66: 150 rows answered a bare array of
// 100, the dataclass's default `$top`, and nothing said that there were more).
import { createDatastore, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Post',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'views', type: 'long' },
      ],
    },
  ],
}

const PAGE = 'http://localhost:5173'
const rest = createRestHandler(
  createDatastore(model, {
    data: { Post: Array.from({ length: 150 }, (_, i) => ({ ID: i + 1, views: i })) },
  }),
  { cors: { origin: PAGE } },
)

const page = async (query: string, headers: Record<string, string> = {}) => {
  const res = await rest.request(`/rest/Post?${query}`, { headers })
  return { res, rows: (await res.json()) as unknown[] }
}
const said = (res: Response) =>
  ['x-total-count', 'x-first', 'x-sent'].map((name) => res.headers.get(name))

describe('$asArray: the page and the total in headers', () => {
  it('answers 100 of 150 rows saying the total, where the page starts and how many it holds', async () => {
    const { res, rows } = await page('$asArray=true')
    expect(rows).toHaveLength(100)
    expect(said(res)).toEqual(['150', '0', '100'])
  })

  it('follows $skip, $top and $filter; a page past the end holds none', async () => {
    expect(said((await page('$asArray=true&$skip=100')).res)).toEqual(['150', '100', '50'])
    const filtered = await page(
      `$asArray=true&$filter=${encodeURIComponent('views >= 100')}&$top=20`,
    )
    expect(filtered.rows).toHaveLength(20)
    expect(said(filtered.res)).toEqual(['50', '0', '20'])
    const past = await page('$asArray=true&$skip=200')
    expect(past.rows).toEqual([])
    expect(said(past.res)).toEqual(['150', '200', '0'])
  })

  it('lets a page of another origin read them; the envelope, which says it, has none', async () => {
    const { res } = await page('$asArray=true&$top=1', { origin: PAGE })
    expect(res.headers.get('access-control-expose-headers')).toMatch(
      /x-total-count, x-first, x-sent$/,
    )
    expect(said((await page('$top=1')).res)).toEqual([null, null, null])
  })
})
