/**
 * Three processes behind one port answer as one server does: `entistore serve --workers 3
 * --postgres --redis` on the company demo, against a single `entistore serve` of the same files
 * (the reference), each request sent to both on a fresh connection, so that node:cluster hands
 * consecutive requests of one client to different workers. Reads, filters, pages, writes with
 * stamps (a stale one refused through another process), atomic batches, entity sets made through
 * one worker and read through another, locks taken through one and honoured by all, one session
 * cookie across all three, deletes and errors: the same statuses and the same bodies, but for what
 * differs from one server to another by nature (times, random ids, the global stamp).
 *
 * Each answer is compared once: a read right after a write, through whichever worker, answers
 * that write, and a set released through one worker is gone through all. No client asks again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { send, type Exchange } from '../../../rest/src/node/conformance.fixture.js'
import { startCli, stopChildren, type CliProcess } from '../persist/cli-process.fixture.js'
import { postgresSkip, startPostgres, type PostgresServer } from './postgres-server.fixture.js'
import { redisMissing, startRedis, type RedisServer } from './redis-server.fixture.js'
import { getOn, Subscriber, until, type Health } from './sse-subscriber.fixture.js'

const root = new URL('../../../../', import.meta.url).pathname
const DEMO = ['-m', `${root}examples/company/model.json`, '-d', `${root}examples/company/data.json`]

/** What differs between two servers by nature: times, random ids, ports, the global stamp. */
function normalized(value: unknown): unknown {
  if (typeof value === 'string')
    return value
      .replace(/[0-9A-F]{32}/g, '<id>')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
      .replace(/127\.0\.0\.1:\d+/g, '<host>')
  if (Array.isArray(value)) return value.map(normalized)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value))
    if (k !== '__TIMESTAMP' && k !== '__GlobalStamp' && k !== '__UNIQID') out[k] = normalized(v)
  return out
}

/** A client of both servers: a cookie jar for each. */
class Client {
  readonly #cookies = new Map<string, string>()

  async send(base: string, exchange: Exchange): Promise<{ status: number; body: unknown }> {
    const cookie = this.#cookies.get(base)
    const answer = await send(base, {
      ...exchange,
      headers: {
        'content-type': 'application/json',
        ...(cookie ? { cookie } : {}),
        ...exchange.headers,
      },
    })
    const set = answer.headers['set-cookie']
    const first = Array.isArray(set) ? set[0] : set
    if (typeof first === 'string') this.#cookies.set(base, first.split(';')[0]!)
    const text = answer.body.toString('utf8')
    return { status: answer.status, body: text ? normalized(JSON.parse(text)) : null }
  }
}

const skip = postgresSkip ?? redisMissing()

describe.skipIf(skip !== undefined)('three processes behind one port', { timeout: 120_000 }, () => {
  let pg: PostgresServer
  let redis: RedisServer
  let cluster: CliProcess
  let single: CliProcess

  beforeAll(async () => {
    ;[pg, redis] = await Promise.all([startPostgres(), startRedis()])
    const database = await pg.freshDatabase()
    cluster = await startCli(
      [
        'serve',
        ...DEMO,
        '--port',
        '0',
        '--workers',
        '3',
        '--postgres',
        database,
        '--redis',
        redis.url,
        // Which worker answered, in /health.
        '--health-details',
      ],
      { ready: 'Workers: 3 processes share port' },
    )
    single = await startCli(['serve', ...DEMO, '--port', '0'])
  }, 120_000)

  afterAll(async () => {
    stopChildren()
    await Promise.all([pg?.stop(), redis?.stop()])
  })

  /** Sends `exchange` to both, once each; their answers must agree. */
  async function both(client: Client, exchange: Exchange) {
    const expected = await client.send(single.url, exchange)
    const actual = await client.send(cluster.url, exchange)
    expect(actual, `${exchange.method ?? 'GET'} ${exchange.target}`).toEqual(expected)
    return actual as { status: number; body: any }
  }

  const update = (body: unknown, query = '$method=update'): Exchange => ({
    method: 'POST',
    target: `/rest/Employee?${query}`,
    body: JSON.stringify(body),
  })

  it('spreads fresh connections over the three workers', async () => {
    const workers = new Set<number>()
    for (let i = 0; i < 12 && workers.size < 3; i++) {
      const health = await send(cluster.url, { target: '/health' })
      workers.add(JSON.parse(health.body.toString('utf8')).worker as number)
    }
    expect(workers.size).toBe(3)
  })

  it('reads: the catalog, by key, filters, pages, expand', async () => {
    const c = new Client()
    expect((await both(c, { target: '/rest/$catalog' })).status).toBe(200)
    await both(c, { target: '/rest/$catalog/Employee' })
    await both(c, { target: '/rest/Employee(1)' })
    await both(c, { target: `/rest/Employee?$filter=${encodeURIComponent('"lastName=\'S@\'"')}` })
    await both(c, { target: '/rest/Employee?$orderby=salary%20desc&$top=5&$skip=3' })
    await both(c, { target: '/rest/Employee(3)?$expand=employer' })
    await both(c, { target: '/rest/Company/staff?$top=2' })
  })

  it('writes: a create read through the others, a stale stamp refused through another process', async () => {
    const a = new Client()
    const b = new Client()
    const created = await both(a, update({ firstName: 'Ada', lastName: 'Workers', salary: 1000 }))
    expect(created.status).toBe(200)
    const key = created.body.__KEY as string
    const stamp = created.body.__STAMP as number
    await both(b, { target: `/rest/Employee(${key})` })
    expect((await both(a, update({ __KEY: key, __STAMP: stamp, salary: 1100 }))).status).toBe(200)
    // B still holds the first stamp: refused wherever it lands, with the stored entity.
    const stale = await both(b, update({ __KEY: key, __STAMP: stamp, salary: 1200 }))
    expect(stale.status).toBe(409)
    expect(stale.body.__STATUS.status).toBe(2)
    const atomic = await both(
      a,
      update(
        [
          { __KEY: key, salary: 1300 },
          { firstName: 'Bo', lastName: 'Workers', salary: 1 },
        ],
        '$method=update&$atomic=true',
      ),
    )
    expect(atomic.status).toBe(200)
    const failed = await both(
      a,
      update(
        [
          { __KEY: key, salary: 1400 },
          { __KEY: '999999', salary: 1 },
        ],
        '$method=update&$atomic=true',
      ),
    )
    expect(failed.status).toBeGreaterThanOrEqual(400)
    const workers = await both(b, {
      target: `/rest/Employee?$filter=${encodeURIComponent('"lastName=Workers"')}&$orderby=ID`,
    })
    expect(workers.body.__ENTITIES.map((e: { salary: number }) => e.salary)).toEqual([1300, 1])
    expect(
      (await both(a, { method: 'POST', target: `/rest/Employee(${key})?$method=delete` })).status,
    ).toBe(200)
    expect((await both(b, { target: `/rest/Employee(${key})` })).status).toBe(404)
  })

  it('entity sets: made through one worker, read and released through others', async () => {
    const target = `/rest/Employee?$filter=${encodeURIComponent('"salary>100000"')}&$orderby=ID&$method=entityset&$top=2`
    // The session that made a set is the one that may release it: its cookie, by server.
    const maker = new Map<string, string>()
    const setOf = async (base: string) => {
      const made = await send(base, { target })
      expect(made.status).toBe(200)
      const cookie = [made.headers['set-cookie']].flat()[0]
      if (typeof cookie === 'string') maker.set(base, cookie.split(';')[0]!)
      return JSON.parse(made.body.toString('utf8')).__ENTITYSET as string
    }
    const [uri, refUri] = [await setOf(cluster.url), await setOf(single.url)]
    // Read through every worker (fresh connections), paged and sorted: as the single server.
    for (const query of ['$top=3&$skip=1', '$top=5&$orderby=salary%20desc', '$top=2'])
      for (let i = 0; i < 3; i++) {
        const got = await send(cluster.url, { target: `${uri}?${query}` })
        const want = await send(single.url, { target: `${refUri}?${query}` })
        expect(got.status, query).toBe(200)
        expect(normalized(JSON.parse(got.body.toString('utf8')))).toEqual(
          normalized(JSON.parse(want.body.toString('utf8'))),
        )
      }
    const release = { target: `${uri}?$method=release` }
    // Another session may read the set, not release it: answered as for a set that is not there.
    expect((await send(cluster.url, release)).status).toBe(404)
    const headers = { cookie: maker.get(cluster.url)! }
    expect((await send(cluster.url, { ...release, headers })).status).toBe(200)
    // Gone through every worker at once, asked once each (a read of a set asks Redis).
    for (let i = 0; i < 6; i++)
      expect((await send(cluster.url, { target: `${uri}?$top=1` })).status).toBe(404)
  })

  it('locks and sessions: a lock taken through one worker refuses another session through any', async () => {
    const owner = new Client()
    const other = new Client()
    await both(owner, { target: '/rest/Employee(2)' }) // a session for each, on some worker
    await both(other, { target: '/rest/Employee(2)' })
    const locked = await both(owner, { target: '/rest/Employee(2)?$lock=true' })
    expect(locked.status).toBe(200)
    for (let i = 0; i < 3; i++) {
      const refused = await both(other, update({ __KEY: '2', salary: 7 }))
      expect(refused.status).toBe(409)
    }
    // The owner's cookie works on every worker: its writes pass.
    for (let i = 0; i < 3; i++)
      expect((await both(owner, update({ __KEY: '2', salary: 8 + i }))).status).toBe(200)
    // Let go through one worker: at once for the other session through any, asked once each.
    expect((await both(owner, { target: '/rest/Employee(2)?$lock=false' })).status).toBe(200)
    expect((await both(other, update({ __KEY: '2', salary: 20 }))).status).toBe(200)
    // A logout lets its session's locks go everywhere before its reply.
    expect((await both(owner, { target: '/rest/Employee(3)?$lock=true' })).status).toBe(200)
    expect((await both(other, update({ __KEY: '3', salary: 1 }))).status).toBe(409)
    await both(owner, { target: '/rest/$directory/logout' })
    for (let i = 0; i < 3; i++)
      expect((await both(other, update({ __KEY: '3', salary: 2 + i }))).status).toBe(200)
  })

  it('errors: a malformed filter, an unknown dataclass, bad JSON', async () => {
    const c = new Client()
    expect(
      (await both(c, { target: `/rest/Employee?$filter=${encodeURIComponent('"salary >"')}` }))
        .status,
    ).toBe(400)
    expect((await both(c, { target: '/rest/Nope' })).status).toBe(404)
    expect(
      (await both(c, { method: 'POST', target: '/rest/Employee?$method=update', body: '{"a":' }))
        .status,
    ).toBe(400)
  })

  it('each worker logs its own requests on the one stdout, a whole line each', async () => {
    // Fresh connections reach the workers in turn: each one writes its lines itself.
    for (let i = 0; i < 6; i++) await send(cluster.url, { target: `/rest/Employee(${i + 1})` })
    await cluster.printed('/rest/Employee(6) 200 ')
    const lines = cluster.stdout().split('\n')
    const requests = lines.filter((l) => /^\[worker \d+\] (GET|POST|HEAD|OPTIONS) \//.test(l))
    const whole =
      /^\[worker (\d+)\] (GET|POST|HEAD|OPTIONS) \/\S* (\d{3}|-) \d+(\.\d\d)? ms \d+ B \S+( \(cut off\))?$/
    for (const line of requests) expect(line).toMatch(whole)
    // No piece of a line anywhere else: every other line with a path is the URL line.
    const others = lines.filter((l) => l.includes('/rest/') && !requests.includes(l))
    expect(others).toEqual([
      expect.stringMatching(/^Entistore serving .* at http:\S+\/rest\/\$catalog$/),
    ])
    expect(new Set(requests.map((l) => whole.exec(l)![1])).size).toBe(3)
  })

  // Last: it kills a worker (the primary starts another).
  const create = (base: string, lastName: string) =>
    send(base, {
      method: 'POST',
      target: '/rest/Employee?$method=update',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Feed', lastName, salary: 1 }),
    })
  const subscribers: Subscriber[] = []
  afterAll(() => {
    for (const s of subscribers) s.close()
  })

  it('every worker’s subscribers get every change in order, and a killed one resumes losslessly', async () => {
    // A subscriber on each of the three processes (fresh sockets reach the workers in turn).
    // From now: the earlier tests' writes are before it.
    const envelope = await send(cluster.url, { target: '/rest/Employee?$top=0' })
    const since = JSON.parse(envelope.body.toString('utf8')).__GlobalStamp as number
    const pids = new Set<number>()
    for (let i = 0; pids.size < 3 && i < 30; i++) {
      const s = new Subscriber(cluster.url, 'Employee')
      await s.open(since)
      if (pids.has(s.pid)) {
        s.close()
        continue
      }
      pids.add(s.pid)
      subscribers.push(s)
    }
    expect(pids.size).toBe(3)

    // Writes through whichever worker a fresh connection reaches (followers forward them).
    for (let i = 0; i < 15; i++) expect((await create(cluster.url, `A${i}`)).status).toBe(200)
    await until(
      () => subscribers.every((s) => s.ids.length >= 15),
      () => subscribers.map((s) => `${s.pid}: ${s.ids.length}`).join(', '),
    )
    const first = subscribers[0]!.ids.slice()
    for (const s of subscribers) expect(s.ids).toEqual(first)
    expect(first).toEqual([...first].sort((a, b) => a - b))

    // Kill a follower's process: its subscriber's stream ends; it reconnects where it can.
    const victim = await (async () => {
      for (const s of subscribers)
        if ((JSON.parse(await getOn(s)) as Health).writer === false) return s
      throw new Error('no follower among the subscribers’ processes')
    })()
    process.kill(victim.pid, 'SIGKILL')
    await victim.ended
    const writes = (async () => {
      for (let i = 0; i < 15; i++) {
        // A write refused while the cluster heals is sent again (it never half-applies).
        for (let attempt = 0; ; attempt++) {
          const answer = await create(cluster.url, `B${i}`).catch(() => undefined)
          if (answer?.status === 200) break
          if (attempt > 100) throw new Error(`b${i} was never acknowledged`)
          await new Promise((r) => setTimeout(r, 50))
        }
      }
    })()
    // Reconnect from the last event it got, through any process that answers.
    for (let attempt = 0; ; attempt++) {
      try {
        await victim.open(since)
        break
      } catch (e) {
        if (attempt > 200) throw e
        await new Promise((r) => setTimeout(r, 50))
      }
    }
    await writes
    await until(
      () => subscribers.every((s) => s.ids.length >= 30),
      () => subscribers.map((s) => `${s.pid}: ${s.ids.length} ${s.types.join(',')}`).join('; '),
    )
    const all = subscribers[1]!.ids.slice()
    expect(all.length).toBe(30)
    expect(new Set(all).size).toBe(30)
    for (const s of subscribers) {
      expect(s.ids).toEqual(all)
      expect(s.types).not.toContain('reset')
    }
  })
})
