import { createDatastore, ManualClock } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import { createRestHandler, type RestHandlerOptions } from '../handler.js'
import { jsonGetter } from '../read/get.fixture.js'

const setup = (options: RestHandlerOptions = {}) =>
  jsonGetter(
    createRestHandler(
      createDatastore(writeModel(), { data: writeData(), clock: new ManualClock() }),
      options,
    ),
  )

describe('limits on query texts', () => {
  it('refuses a $filter or $orderby longer than maxFilterLength with 9011', async () => {
    const { get, error } = setup({ maxFilterLength: 40 })
    expect((await get('/rest/Employee?$filter="salary>1"')).status).toBe(200)
    const long = `salary>1${' and salary>1'.repeat(5)}`
    expect(await error(`/rest/Employee?$filter="${encodeURIComponent(long)}"`)).toEqual({
      status: 400,
      errCode: 9011,
    })
    expect(await error(`/rest/Employee?$orderby="${'lastName,'.repeat(6)}salary"`)).toEqual({
      status: 400,
      errCode: 9011,
    })
  })

  it('refuses a filter deeper than maxFilterDepth', async () => {
    const { get, error } = setup({ maxFilterDepth: 3 })
    expect((await get('/rest/Employee?$filter="not(not(salary>1))"')).status).toBe(200)
    expect(await error('/rest/Employee?$filter="not(not(not(salary>1)))"')).toEqual({
      status: 400,
      errCode: 9011,
    })
  })

  it('counts IN values written in the filter and passed in $params', async () => {
    const { get, error } = setup({ maxInTerms: 3 })
    expect((await get('/rest/Employee?$filter="ID in [1,2,3]"')).status).toBe(200)
    expect(await error('/rest/Employee?$filter="ID in [1,2,3,4]"')).toEqual({
      status: 400,
      errCode: 9011,
    })
    const params = encodeURIComponent(JSON.stringify([[1, 2, 3, 4]]))
    expect(await error(`/rest/Employee?$filter="ID in :1"&$params='${params}'`)).toEqual({
      status: 400,
      errCode: 9011,
    })
  })

  it('leaves $savedfilter=true alone, and the defaults accept large honest queries', async () => {
    const { get } = setup()
    expect(
      (await get('/rest/Employee?$filter="salary>1"&$savedfilter=true&$method=entityset')).status,
    ).toBe(200)
    const ids = Array.from({ length: 5000 }, (_, i) => i).join(',')
    expect((await get(`/rest/Employee?$filter="ID in [${ids}]"`)).status).toBe(200)
  })
})
