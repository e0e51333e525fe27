/**
 * `entistore serve --redis` in two child processes on two ports, one Redis: what a client does
 * through one process holds through the other, as behind a load balancer (its cookie, its lock,
 * its entity set).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../cli.js'
import { shopFiles, startCli } from '../../persist/cli-process.fixture.js'
import { redisMissing, startRedis, type RedisServer } from '../redis-server.fixture.js'

const missing = redisMissing()
const { folder, model, data } = shopFiles('redis-cli', ['a', 'b', 'c'])
let server: RedisServer | undefined

beforeAll(async () => {
  if (!missing) server = await startRedis()
})
afterAll(async () => {
  await server?.stop()
})

/** Starts `entistore serve --redis`; resolves with its URL once it listens and shares. */
const start = async (args: string[]): Promise<string> =>
  (await startCli(['serve', ...args, '--port', '0'], { ready: 'through Redis at' })).url

describe.skipIf(missing)(
  `entistore serve --redis${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    it('two processes on two ports share a cookie, a lock and an entity set', async () => {
      const args = ['-m', model, '-d', data, '--redis', server!.url]
      const [one, two] = await Promise.all([start(args), start(args)])

      const jar = () => {
        let cookie: string | undefined
        return async (base: string, path: string, body?: unknown) => {
          const res = await fetch(`${base}${path}`, {
            method: body === undefined ? 'GET' : 'POST',
            headers: {
              ...(cookie ? { cookie } : {}),
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          })
          const setCookie = res.headers.get('set-cookie')
          if (setCookie) cookie = setCookie.split(';')[0]
          return {
            status: res.status,
            json: (await res.json()) as Record<string, any>,
            setCookie,
          }
        }
      }
      const ann = jar()
      const bob = jar()
      expect((await ann(one, '/rest/Item(1)?$lock=true')).json.result).toBe(true)
      const again = await ann(two, '/rest/Item(1)')
      expect([again.status, again.setCookie]).toEqual([200, null])
      expect((await bob(two, '/rest/Item(1)?$lock=true')).json.__STATUS.status).toBe(3)
      expect((await bob(one, '/rest/Item?$method=update', { __KEY: '1', name: 'x' })).status).toBe(
        409,
      )
      expect((await ann(two, '/rest/Item?$method=update', { __KEY: '2', name: 'y' })).status).toBe(
        200,
      )

      // The data is each process's own (no PostgreSQL here): the set is read from `one`'s, in the
      // order `two` kept it.
      const made = await ann(two, '/rest/Item?$method=entityset&$orderby=ID desc&$attributes=name')
      const path = (made.json.__ENTITYSET as string).replace(/^.*\/rest/, '/rest')
      const read = await bob(one, `${path}?$top=2&$attributes=name`)
      expect(read.json.__ENTITIES.map((e: Record<string, string>) => e.name)).toEqual(['c', 'b'])
      expect(read.json.__COUNT).toBe(3)
    })

    it('counts a quota across both processes (--quotas)', async () => {
      const quotas = join(folder, 'quotas.json')
      writeFileSync(quotas, JSON.stringify({ nbRequestsPerHour: 4 }))
      const args = ['-m', model, '-d', data, '--redis', server!.url, '--quotas', quotas]
      const [one, two] = await Promise.all([start(args), start(args)])
      const hour = new Date().getUTCHours()
      const statuses: number[] = []
      for (let i = 0; i < 8; i++)
        statuses.push((await fetch(`${i % 2 ? two : one}/rest/$catalog`)).status)
      // Counted apart, each would let 4 through (8); an hour that ended meanwhile started again.
      if (new Date().getUTCHours() === hour)
        expect(statuses.filter((s) => s === 200).length).toBeLessThan(8)
      expect(statuses.slice(-2)).toEqual([429, 429])
    })
  },
)

describe.skipIf(missing)('entistore serve --redis with users and roles (issue 61)', () => {
  it('a set made through one process holds its maker’s order: another view is refused it through the other', async () => {
    const { folder, model, data } = shopFiles('redis-views', ['a', 'b', 'c'])
    const roles = join(folder, 'roles.json')
    const users = join(folder, 'users.json')
    writeFileSync(
      roles,
      JSON.stringify({
        privileges: [
          { privilege: 'reader', includes: [] },
          { privilege: 'pricing', includes: [] },
        ],
        roles: [],
        permissions: {
          allowed: [
            { applyTo: 'ds', type: 'datastore', read: ['reader'] },
            { applyTo: 'Item.name', type: 'attribute', read: ['pricing'] },
          ],
        },
      }),
    )
    writeFileSync(
      users,
      JSON.stringify({
        paula: { password: 'p', privileges: ['reader', 'pricing'] },
        ann: { password: 'a', privileges: ['reader'] },
      }),
    )
    const args = [
      '-m',
      model,
      '-d',
      data,
      '--roles',
      roles,
      '--users',
      users,
      '--redis',
      server!.url,
    ]
    const [one, two] = await Promise.all([start(args), start(args)])
    const client = async (name: string, password: string) => {
      let cookie = ''
      const send = async (base: string, path: string, headers: Record<string, string> = {}) => {
        const res = await fetch(`${base}${path}`, {
          method: path.includes('login') ? 'POST' : 'GET',
          headers: { ...(cookie ? { cookie } : {}), ...headers },
        })
        cookie = res.headers.get('set-cookie')?.split(';')[0] ?? cookie
        return { status: res.status, json: (await res.json()) as Record<string, any> }
      }
      const login = await send(one, '/rest/$directory/login', {
        'username-4D': name,
        'password-4D': password,
      })
      expect(login.status).toBe(200)
      return send
    }
    const paula = await client('paula', 'p')
    const ann = await client('ann', 'a')
    const made = await paula(two, '/rest/Item?$orderby=name desc&$method=entityset')
    expect(made.status).toBe(200)
    const path = (made.json.__ENTITYSET as string).replace(/^.*\/rest/, '/rest')
    expect((await paula(one, `${path}?$attributes=ID`)).status).toBe(200)
    const read = await ann(one, `${path}?$attributes=ID`)
    expect([read.status, read.json.__ERROR?.[0]?.errCode]).toEqual([403, 1607])
  })
})

describe('entistore serve --redis, refused', () => {
  const run = async (args: string[]) => {
    const err: string[] = []
    const code = await main(['serve', '-m', model, '--port', '0', ...args], {
      out: () => {},
      err: (l) => err.push(l),
    })
    return { code, err }
  }

  it('with --watch: a reload would leave the shared sessions and sets behind', async () => {
    const { code, err } = await run(['--redis', 'redis://127.0.0.1:1', '--watch'])
    expect(code).toBe(2)
    expect(err[0]).toBe('entistore: --redis and --watch cannot go together')
  })

  it('when Redis cannot be reached: exit 1, saying why, the password not shown', async () => {
    const { code, err } = await run(['--redis', 'redis://me:secret@127.0.0.1:1'])
    expect(code).toBe(1)
    expect(err.join('\n')).toMatch(/Redis at redis:\/\/me:\*\*\*@127\.0\.0\.1:1.*ECONNREFUSED/)
    expect(err.join('\n')).not.toContain('secret')
  })
})
