/**
 * Issue 50: the live feed across processes. `entistore serve --workers 3 --postgres --redis`: a
 * subscriber on each worker (its connection pinned: `/health` then `$changes` on one socket) gets
 * every change made through any worker, in the datastore's order, each once; a worker killed with
 * SIGKILL drops its subscriber, which reconnects with `Last-Event-ID` (through whichever worker
 * answers) and misses nothing and gets nothing twice while writes go on.
 */
import { Agent, request, type IncomingMessage } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { send } from '../../../rest/src/node/conformance.fixture.js'
import {
  shopFiles,
  startCli,
  stopChildren,
  type CliProcess,
} from '../persist/cli-process.fixture.js'
import { postgresSkip, startPostgres, type PostgresServer } from './postgres-server.fixture.js'
import { redisMissing, startRedis, type RedisServer } from './redis-server.fixture.js'

const skip = postgresSkip ?? redisMissing()
const { model, data } = shopFiles('live-feed', ['seed'])

/** How long the events of a write may take to reach every subscriber (a busy CI machine). */
const WITHIN_MS = 30_000

interface Health {
  readonly pid: number
  readonly writer?: boolean
}

/** A subscriber over one socket: the events it got, by id; it reconnects when asked. */
class Subscriber {
  readonly ids: number[] = []
  readonly types: string[] = []
  pid = 0
  #res: IncomingMessage | undefined
  #agent: Agent | undefined
  ended: Promise<void> = Promise.resolve()

  constructor(readonly base: string) {}

  get last(): number | undefined {
    return this.ids.at(-1)
  }

  /** Opens the stream on a new socket (after `/health` on it, which says which process it is). */
  async open(since: number): Promise<void> {
    this.#agent?.destroy()
    const agent = (this.#agent = new Agent({ keepAlive: true, maxSockets: 1 }))
    const health = await get(this.base, '/health', agent)
    this.pid = (JSON.parse(health) as Health).pid
    const headers: Record<string, string> = { accept: 'text/event-stream' }
    if (this.last !== undefined) headers['last-event-id'] = String(this.last)
    const res = await new Promise<IncomingMessage>((resolve, reject) =>
      request(`${this.base}/rest/Item/$changes?$since=${since}`, { agent, headers }, resolve)
        .on('error', reject)
        .end(),
    )
    if (res.statusCode !== 200) throw new Error(`$changes answered ${res.statusCode}`)
    this.#res = res
    let text = ''
    res.setEncoding('utf8')
    res.on('data', (chunk: string) => {
      text += chunk
      for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
        const block = text.slice(0, end)
        text = text.slice(end + 2)
        const id = /^id: (\d+)$/m.exec(block)?.[1]
        const type = /^event: (\w+)$/m.exec(block)?.[1]
        if (type === undefined) continue
        this.types.push(type)
        if (type === 'created' || type === 'updated' || type === 'deleted')
          this.ids.push(Number(id))
      }
    })
    this.ended = new Promise((resolve) => {
      res.on('close', resolve)
      res.on('error', () => resolve())
    })
  }

  close(): void {
    this.#res?.destroy()
    this.#agent?.destroy()
  }
}

function get(base: string, path: string, agent?: Agent): Promise<string> {
  return new Promise((resolve, reject) =>
    request(`${base}${path}`, { agent: agent ?? false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (body += d))
      res.on('end', () => resolve(body))
    })
      .on('error', reject)
      .end(),
  )
}

/** Waits (polling, never a fixed sleep) until `done()`, or fails after WITHIN_MS saying `what`. */
async function until(done: () => boolean, what: () => string): Promise<void> {
  const start = Date.now()
  while (!done()) {
    if (Date.now() - start > WITHIN_MS) throw new Error(`not within ${WITHIN_MS} ms: ${what()}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

const create = (base: string, name: string) =>
  send(base, {
    method: 'POST',
    target: '/rest/Item?$method=update',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  })

describe.skipIf(skip !== undefined)(
  'the live feed across three workers',
  { timeout: 180_000 },
  () => {
    let pg: PostgresServer
    let redis: RedisServer
    let cluster: CliProcess
    const subscribers: Subscriber[] = []

    beforeAll(async () => {
      ;[pg, redis] = await Promise.all([startPostgres(), startRedis()])
      cluster = await startCli(
        [
          'serve',
          ...['-m', model, '-d', data, '--port', '0'],
          ...['--postgres', await pg.freshDatabase(), '--redis', redis.url, '--health-details'],
          ...['--workers', '3'],
        ],
        { ready: 'Workers: 3 processes share port' },
      )
    }, 120_000)
    afterAll(async () => {
      for (const s of subscribers) s.close()
      stopChildren()
      await Promise.all([pg?.stop(), redis?.stop()])
    })

    it('every worker’s subscribers get every change in order, and a killed one resumes losslessly', async () => {
      // A subscriber on each of the three processes (fresh sockets reach the workers in turn).
      const since = 0
      const pids = new Set<number>()
      for (let i = 0; pids.size < 3 && i < 30; i++) {
        const s = new Subscriber(cluster.url)
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
      for (let i = 0; i < 15; i++) expect((await create(cluster.url, `a${i}`)).status).toBe(200)
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
            const answer = await create(cluster.url, `b${i}`).catch(() => undefined)
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
  },
)

/** `/health` on a fresh connection to the same process as `s`: asked through its pid's answer. */
async function getOn(s: Subscriber): Promise<string> {
  for (let i = 0; i < 30; i++) {
    const body = await get(s.base, '/health')
    if ((JSON.parse(body) as Health).pid === s.pid) return body
  }
  throw new Error(`process ${s.pid} never answered /health`)
}
