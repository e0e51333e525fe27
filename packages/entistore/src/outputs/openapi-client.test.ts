/**
 * A client generated from the demo's OpenAPI description calls the running demo: the types of
 * openapi-typescript (generated/company-api.d.ts, compared with a fresh generation by
 * `npm run openapi:check`) with openapi-fetch over HTTP. The compiler checks each call against the
 * description; each answer is checked against the description's schemas (Ajv), so a reply the
 * description does not allow fails here.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ManualClock } from '@entistore/core'
import { createRestHandler } from '@entistore/rest'
import { toNodeListener } from '@entistore/rest/node'
import createClient from 'openapi-fetch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ResponseCheck, validateOpenApi } from '../../../rest/src/openapi/response-check.fixture.js'
import {
  COMPANY_DATA,
  COMPANY_FUNCTIONS,
  COMPANY_MODEL,
  companyDescription,
} from './company-api.fixture.js'
import type { paths } from '../generated/company-api.js'
import { loadDatastoreFiles } from '../load/load-files.js'

let server: Server
let origin: string
let served: object
let check: ResponseCheck

beforeAll(async () => {
  const ds = await loadDatastoreFiles({
    model: COMPANY_MODEL,
    data: COMPANY_DATA,
    functions: COMPANY_FUNCTIONS,
    clock: new ManualClock(Date.UTC(2026, 0, 5, 9)),
  })
  server = createServer(toNodeListener(createRestHandler(ds)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  served = (await (await fetch(`${origin}/rest/$openapi`)).json()) as object
  check = new ResponseCheck(served)
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

describe("the demo's OpenAPI description", () => {
  it('is served at /rest/$openapi, valid OpenAPI 3.1, the same as the generator and the CLI give', async () => {
    const result = await validateOpenApi(served)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(served).toEqual(await companyDescription())
  })
})

describe('a client generated from it, calling the demo', () => {
  const client = () => createClient<paths>({ baseUrl: origin })

  it('reads an entity', async () => {
    const { data, response } = await client().GET('/rest/Employee({key})', {
      params: { path: { key: 1 } },
    })
    expect(response.status).toBe(200)
    expect(check.reply('/rest/Employee({key})', 'get', 200, data)).toEqual([])
    expect(data).toMatchObject({ __KEY: '1', lastName: 'Silva', birthDate: '!!2000-01-13!!' })
  })

  it('reads a filtered selection', async () => {
    const { data, response } = await client().GET('/rest/Employee', {
      params: {
        query: {
          $filter: 'salary>:1 and employer.name=:2',
          $params: '[140000, "Acme@"]',
          $orderby: 'salary desc',
          $top: 2,
          $attributes: 'lastName,salary,employer.name',
        },
      },
    })
    expect(response.status).toBe(200)
    expect(check.reply('/rest/Employee', 'get', 200, data)).toEqual([])
    expect(data).toMatchObject({ __COUNT: 3, __SENT: 2 })
    const page = data as { __ENTITIES: { salary: number; employer: { name: string } }[] }
    expect(page.__ENTITIES.map((e) => [e.salary, e.employer.name])).toEqual([
      [147000, 'Acme Labs'],
      [144000, 'Acme Labs'],
    ])
  })

  it('writes an entity and reads the write back', async () => {
    const body = { __KEY: '2', __STAMP: 1, salary: 61000, extra: { level: 3 } }
    expect(check.request('/rest/Employee', 'post', body)).toEqual([])
    const { data, response } = await client().POST('/rest/Employee', {
      params: { query: { $method: 'update' } },
      body,
    })
    expect(response.status).toBe(200)
    expect(check.reply('/rest/Employee', 'post', 200, data)).toEqual([])
    expect(data).toMatchObject({
      __STATUS: { success: true },
      __KEY: '2',
      __STAMP: 2,
      salary: 61000,
    })
    // The same stamp again is stale: 409, an `__ERROR` reply as the description says.
    const stale = await client().POST('/rest/Employee', {
      params: { query: { $method: 'update' } },
      body,
    })
    expect(stale.response.status).toBe(409)
    expect(check.reply('/rest/Employee', 'post', 409, stale.error)).toEqual([])
  })

  it("calls a dataclass's and an entity's functions", async () => {
    const high = await client().POST('/rest/Employee/highEarners', {
      params: { query: { $top: 1, $attributes: 'salary' } },
      body: [148000],
    })
    expect(high.response.status).toBe(200)
    expect(check.reply('/rest/Employee/highEarners', 'post', 200, high.data)).toEqual([])
    expect(high.data).toMatchObject({ __COUNT: 7, __ENTITIES: [{ salary: 150000 }] })
    const raised = await client().POST('/rest/Employee({key})/raise', {
      params: { path: { key: 3 } },
      body: [5],
    })
    expect(raised.response.status).toBe(200)
    expect(check.reply('/rest/Employee({key})/raise', 'post', 200, raised.data)).toEqual([])
    const refused = await client().POST('/rest/Employee({key})/raise', {
      params: { path: { key: 3 } },
      body: [500],
    })
    expect(refused.response.status).toBe(422)
    expect(check.reply('/rest/Employee({key})/raise', 'post', 422, refused.error)).toEqual([])
    const info = await client().GET('/rest/$catalog/appInfo')
    expect(check.reply('/rest/$catalog/appInfo', 'get', 200, info.data)).toEqual([])
  })
})
