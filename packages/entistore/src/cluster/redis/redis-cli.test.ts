/**
 * `entistore serve --redis` in two child processes on two ports, one Redis: what a client does
 * through one process holds through the other, as behind a load balancer (its cookie, its lock,
 * its entity set).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../cli.js'
import { shopFiles, startCli } from '../../persist/cli-process.fixture.js'
import { redisMissing, startRedis, type RedisServer } from '../redis-server.fixture.js'

const missing = redisMissing()
const { model, data } = shopFiles('redis-cli', ['a', 'b', 'c'])
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
  },
)

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
