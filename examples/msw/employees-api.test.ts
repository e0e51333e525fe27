import { readFileSync } from 'node:fs'
import { createDatastore } from '@entistore/core'
import { restHandlers } from 'entistore/msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { EmployeesApi } from './employees-api.ts'

const company = (file: string) =>
  JSON.parse(readFileSync(new URL(`../company/${file}`, import.meta.url), 'utf8'))

// The company demo's model and data (360 employees), behind a mocked https://hr.example.test.
const handlers = restHandlers(
  createDatastore(company('model.json'), { data: company('data.json') }),
  {
    baseUrl: 'https://hr.example.test',
    authenticate: ({ user, password }) => (password === `${user}-secret` ? { name: user } : null),
    forceLogin: true,
  },
)
const server = setupServer(...handlers)
const api = new EmployeesApi('https://hr.example.test')

// msw 3 runs on Node 22 and later.
const oldNode = Number(process.versions.node.split('.')[0]) < 22
beforeAll(() => {
  if (!oldNode) server.listen({ onUnhandledFrame: 'error' })
})
beforeEach(() => handlers.reset())
afterAll(() => server.close())

describe.skipIf(oldNode)('the front end against a fake 4D backend (entistore/msw)', () => {
  it('is refused before the login, as the real server with forceLogin refuses it', async () => {
    await expect(api.topEarners(3)).rejects.toThrow(/^401: /)
  })

  it('reads what the server would answer once logged in', async () => {
    await api.logIn('ada', 'ada-secret')
    const top = await api.topEarners(3)
    expect(top).toHaveLength(3)
    expect(top[0]!.salary).toBeGreaterThanOrEqual(top[2]!.salary)
    const all = handlers.ds.dataClass('Employee').query('salary >= :1', 100_000).length
    expect(await api.countEarning(100_000)).toBe(all)
  })

  it('writes, and each test starts from the same data again', async () => {
    await api.logIn('ada', 'ada-secret')
    const hired = await api.hire({ firstName: 'Grace', lastName: 'Hopper', salary: 999_000 })
    expect(hired.__KEY).toBe('361')
    expect((await api.topEarners(1))[0]!.lastName).toBe('Hopper')
  })

  it('does not see the last test’s hire', async () => {
    await api.logIn('ada', 'ada-secret')
    expect((await api.topEarners(1))[0]!.lastName).not.toBe('Hopper')
  })
})
