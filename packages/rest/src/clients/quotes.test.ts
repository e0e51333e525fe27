/**
 * Issue 32: quotes the way clients send them. The explorer, like the modern 4D client, wraps
 * `$filter` in double quotes and writes a quote inside it as `\u0022` (`\u0027`); a value that
 * starts with such an escape is a quoted string, as if the quote had been typed.
 */
import { createDatastore, type DataFile, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'
import { jsonGetter } from '../read/get.fixture.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Farm',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', indexed: true },
      ],
    },
  ],
}
const data: DataFile = {
  Farm: [
    { ID: 1, name: 'Acme Farms' },
    { ID: 2, name: 'Acme Orchard' },
    { ID: 3, name: "O'Brien Orchard" },
    { ID: 4, name: 'The "Big" Barn' },
    { ID: 5, name: 'Zeta Farms' },
  ],
}

const { get, error } = jsonGetter(createRestHandler(createDatastore(model, { data })))
const filter = (text: string, more = ''): string =>
  `/rest/Farm?$filter=${encodeURIComponent(`"${text}"`)}${more}`
const keys = async (path: string): Promise<string[]> => {
  const r = await get(path)
  expect(r.status, r.text).toBe(200)
  return (r.json as { __ENTITIES: { __KEY: string }[] }).__ENTITIES.map((e) => e.__KEY)
}

describe('a filter typed with double quotes, sent as \\u0022 (the explorer, the 4D client)', () => {
  it('finds the rows the typed quotes find', async () => {
    expect(await keys(filter('name = \\u0022Acme@\\u0022'))).toEqual(['1', '2'])
    expect(await keys(filter('name = "Acme@"'))).toEqual(['1', '2'])
    expect(await keys(filter('name = \\u0027Acme@\\u0027'))).toEqual(['1', '2'])
  })

  it('finds them with the backslash sent raw, as clients send it', async () => {
    expect(await keys('/rest/Farm?$filter="name%20=%20\\u0022Acme@\\u0022"')).toEqual(['1', '2'])
  })

  it('plans the value without the quotes, as for typed ones', async () => {
    const plan = async (text: string): Promise<unknown> =>
      ((await get(filter(text, '&$queryplan=true&$top=0'))).json as { __queryPlan: unknown })
        .__queryPlan
    const typed = await plan('name = "Acme@"')
    expect(await plan('name = \\u0022Acme@\\u0022')).toEqual(typed)
    expect(JSON.stringify(typed)).not.toContain('\\"Acme')
  })

  it('keeps a typed quote of the other kind inside it', async () => {
    expect(await keys(filter("name = \\u0022O'Brien Orchard\\u0022"))).toEqual(['3'])
    expect(await keys(filter('name = \\u0027The "Big" Barn\\u0027'))).toEqual(['4'])
  })

  it('takes a list of such values', async () => {
    expect(
      await keys(filter('name in [\\u0022Acme Farms\\u0022, \\u0022Zeta Farms\\u0022]')),
    ).toEqual(['1', '5'])
  })

  it('refuses one never closed as an unclosed quote (1809, 1808)', async () => {
    expect(await error(filter('name = \\u0022Acme@'))).toEqual({ status: 400, errCode: 1809 })
    expect(await error(filter('name = \\u0027Acme@'))).toEqual({ status: 400, errCode: 1808 })
  })
})

describe('escapes inside typed quotes, and inside unquoted values, stay characters', () => {
  it('reads them as the quote they stand for', async () => {
    expect(await keys(filter("name = 'O\\u0027Brien Orchard'"))).toEqual(['3'])
    expect(await keys(filter("name = 'The \\u0022Big\\u0022 Barn'"))).toEqual(['4'])
    expect(await keys(filter('name = O\\u0027Brien@'))).toEqual(['3'])
  })
})
