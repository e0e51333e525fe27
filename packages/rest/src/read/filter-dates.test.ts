// A day as a reply writes it (`"!!1970-05-01!!"`) pasted back into a `$filter` (issue 66: refused
// with a syntax error), and 4D's own date forms: `YYYY-MM-DD` (its query strings'), `!YYYY-MM-DD!`
// (its date constant), `d!m!yyyy` (the legacy form it reads on writes).
import { createDatastore, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from '../handler.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'birthDate', type: 'date' },
        { name: 'hiredAt', type: 'date', dateOnly: false },
      ],
    },
  ],
}
const rest = createRestHandler(
  createDatastore(model, {
    data: {
      Employee: [
        { ID: 1, birthDate: '1970-05-01', hiredAt: '2020-01-15T00:00:00.000Z' },
        { ID: 2, birthDate: '1985-11-30', hiredAt: '2021-03-04T10:00:00.000Z' },
      ],
    },
  }),
)

const ids = async (filter: string) => {
  const res = await rest.request(
    `/rest/Employee?$attributes=ID&$filter=${encodeURIComponent(filter)}`,
  )
  const body = (await res.json()) as { __ENTITIES?: { ID: number }[] }
  return [res.status, body.__ENTITIES?.map((e) => e.ID)]
}

describe('$filter: 4D date literals', () => {
  it('takes back the day a reply wrote, unquoted, in every comparison and in a list', async () => {
    const read = (await (await rest.request('/rest/Employee(1)')).json()) as { birthDate: string }
    expect(read.birthDate).toBe('!!1970-05-01!!')
    expect(await ids(`birthDate = ${read.birthDate}`)).toEqual([200, [1]])
    expect(await ids(`birthDate > ${read.birthDate}`)).toEqual([200, [2]])
    expect(await ids(`birthDate != ${read.birthDate}`)).toEqual([200, [2]])
    expect(await ids(`birthDate in [!!1985-11-30!!, ${read.birthDate}]`)).toEqual([200, [1, 2]])
    // On a date-time attribute, the day's midnight (UTC), as `2020-01-15` is.
    expect(await ids('hiredAt = !!2020-01-15!!')).toEqual([200, [1]])
  })

  it("reads 4D's other forms as the same day, and refuses a day that does not exist", async () => {
    for (const day of ['1985-11-30', '!1985-11-30!', '30!11!1985', "'!!1985-11-30!!'"])
      expect(await ids(`birthDate = ${day}`)).toEqual([200, [2]])
    expect((await ids('birthDate = !!1985-02-30!!'))[0]).toBe(400)
  })
})
