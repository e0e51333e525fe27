/** examples/auth/server.ts, started in-process: a login, a read, a refused read and a refused write. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { start } from '../../../../examples/auth/server.ts'

type Running = Awaited<ReturnType<typeof start>>

describe('examples/auth', () => {
  let server: Running
  beforeAll(async () => {
    server = await start(0)
  })
  afterAll(() => server.close())

  const login = async (user: string, password: string) => {
    const res = await fetch(`${server.url}/rest/$directory/login`, {
      method: 'POST',
      headers: { 'username-4D': user, 'password-4D': password },
    })
    return { status: res.status, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? '' }
  }
  const get = async (path: string, cookie = '') => {
    const res = await fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {} })
    return { status: res.status, json: (await res.json()) as Record<string, any> }
  }

  it('refuses a guest (401) and a wrong password', async () => {
    expect((await get('/rest/Employee(1)')).status).toBe(401)
    expect((await login('bob', 'nope')).status).toBe(401)
  })

  it('lets HR read salaries, and hides them from everyone else (403 when asked for)', async () => {
    const ada = await login('ada', 'ada-secret')
    const bob = await login('bob', 'bob-secret')
    expect(ada.status).toBe(200)
    expect((await get('/rest/Employee(1)', ada.cookie)).json.salary).toBe(55000)
    const seen = await get('/rest/Employee(1)', bob.cookie)
    expect(seen.status).toBe(200)
    expect(seen.json.lastName).toBe('Silva')
    expect(seen.json).not.toHaveProperty('salary')
    const asked = await get('/rest/Employee?$orderby=salary', bob.cookie)
    expect(asked.status).toBe(403)
    expect(asked.json.__ERROR[0].errCode).toBe(1607)
  })

  it('refuses a write the user may not make (403 1558)', async () => {
    const bob = await login('bob', 'bob-secret')
    const res = await fetch(`${server.url}/rest/Company?$method=update`, {
      method: 'POST',
      headers: { cookie: bob.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ __KEY: 1, city: 'Paris' }),
    })
    expect(res.status).toBe(403)
    expect(((await res.json()) as any).__ERROR[0].errCode).toBe(1558)
  })
})
