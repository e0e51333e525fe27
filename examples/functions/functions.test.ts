/**
 * The class-functions example, started as its README says (a child process on a free port), each
 * kind of function called over HTTP: the datastore's, a dataclass's, an entity's, an entity
 * selection's and a singleton's, and the errors a client sees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runExample, type RunningExample } from '../run-example.fixture.ts'

let server: RunningExample
beforeAll(async () => {
  server = await runExample('examples/functions/server.ts')
})
afterAll(() => server?.stop())

const json = { 'content-type': 'application/json' }
const get = (path: string) => fetch(`${server.url}/rest/${path}`)
const post = (path: string, body: unknown) =>
  fetch(`${server.url}/rest/${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) })
const errCodes = async (reply: Response) =>
  ((await reply.json()) as { __ERROR: { errCode: number }[] }).__ERROR.map((e) => e.errCode)

describe('the class functions example', () => {
  it('lists the exposed functions in the catalog', async () => {
    const catalog = (await (await get('$catalog')).json()) as Record<string, unknown>
    expect(catalog.methods).toEqual([
      expect.objectContaining({ name: 'headcount', allowedOnHTTPGET: true }),
    ])
    expect(catalog.singletons).toEqual([
      { name: 'Visits', methods: [{ name: 'hit', allowedOnHTTPGET: true, exposed: true }] },
    ])
  })

  it('a datastore function, on GET', async () => {
    expect(await (await get('$catalog/headcount')).json()).toEqual({
      result: { companies: 24, employees: 360 },
    })
  })

  it('a dataclass function returning a selection, its parameters in $params', async () => {
    const reply = await get(
      `Company/inCountry?$params='["France"]'&$attributes=name,country&$top=2`,
    )
    const body = (await reply.json()) as { __COUNT: number; __ENTITIES: { country: string }[] }
    expect(body.__COUNT).toBeGreaterThan(0)
    expect(body.__ENTITIES.map((e) => e.country)).toEqual(['France', 'France'])
  })

  it('an entity function that writes, and the error it throws its own way', async () => {
    const hired = await post('Company(1)/hire', ['Grace', 'Hopper', 5000])
    expect(hired.status).toBe(200)
    expect(await hired.json()).toMatchObject({
      __DATACLASS: 'Employee',
      __KEY: '361',
      lastName: 'Hopper',
      employerID: 1,
    })
    const refused = await post('Company(1)/hire', ['Grace', 'Hopper', -1])
    expect(refused.status).toBe(422)
    expect(await refused.json()).toEqual({
      __ERROR: [{ message: 'the salary must be positive', componentSignature: 'demo', errCode: 2 }],
    })
    // A parameter of the wrong type is refused before the call (9101); GET is not allowed (9102).
    const wrongType = await post('Company(1)/hire', ['Grace', 'Hopper', 'lots'])
    expect([wrongType.status, await errCodes(wrongType)]).toEqual([400, [9101]])
    const onGet = await get('Company(1)/hire')
    expect([onGet.status, await errCodes(onGet)]).toEqual([405, [9102]])
  })

  it('an entity selection function answering a file, on the selection of $filter', async () => {
    const reply = await get('Employee/csv?$filter="employer.ID=2"&$orderby="ID"')
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(reply.headers.get('content-disposition')).toBe('attachment; filename="employees.csv"')
    const lines = (await reply.text()).trim().split('\n')
    expect(lines[0]).toBe('ID,lastName,firstName,salary')
    expect(lines.length).toBeGreaterThan(1)
  })

  it('a singleton function, its state kept from call to call', async () => {
    const first = (
      (await (await get('$singleton/Visits/hit')).json()) as { result: { count: number } }
    ).result.count
    expect(await (await get('$singleton/Visits/hit')).json()).toEqual({
      result: { count: first + 1 },
    })
  })
})
