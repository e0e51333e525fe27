/**
 * @module Processes serving one datastore through one Redis, inside one test process: datastores
 * on the same model and data (two, A and B, and more on demand), each with its REST handler behind
 * its own Redis participant (its own connections), and clients with a cookie jar that send each
 * request through any. Each call gets its own key prefix, so tests sharing a server do not meet.
 *
 * The leases run on one manual time for all (`time.advance(ms)`: the heartbeats and the waits for
 * acknowledgements due by then run), as one real time runs for all processes; its lease is long
 * (`LEASE_MS`), so that the membership keys, which live in Redis's real time, outlast any test.
 * Each datastore has two class functions on its session's storage: `setCart(n)` and `cart()`.
 * Test-only.
 */
import {
  createDatastore,
  defineFunctions,
  currentCall,
  ManualClock,
  type Datastore,
} from '@entistore/core'
import { createRestHandler, toFetchHandler, type RestHandlerOptions } from '@entistore/rest'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { writeData, writeModel } from '../../../../core/src/txn/writes.fixture.js'
import { manualSchedule } from '../../../../rest/src/schedule.fixture.js'
import { connectRedis } from './connect.js'
import type { RedisParticipantOptions } from './options.js'
import type { RedisParticipant } from './redis-participant.js'
import type { RedisSessionCounts } from './redis-sessions.js'
import { ClusterWrites } from '../cluster-core.js'
import { redisMissing, startRedis, type RedisServer } from '../redis-server.fixture.js'

/** The lease of the fixture's processes, in (manual) milliseconds. */
export const LEASE_MS = 60_000

/** A session's storage, through REST: `POST /rest/$catalog/setCart [n]`, `GET /rest/$catalog/cart`. */
const functions = defineFunctions({
  dataStore: {
    setCart: {
      exposed: true,
      params: ['number'],
      call(n: unknown) {
        currentCall()!.session!.data.set('cart', n)
        return n
      },
    },
    cart: {
      exposed: true,
      onHTTPGet: true,
      call() {
        return currentCall()!.session!.data.get('cart') ?? null
      },
    },
  },
})

export type Json = Record<string, any>

export interface Reply {
  readonly status: number
  readonly json: Json
  readonly setCookie: string | null
  readonly retryAfter: string | null
}

export interface Node {
  readonly ds: Datastore
  readonly clock: ManualClock
  readonly participant: RedisParticipant
  readonly fetch: (request: Request) => Promise<Response>
  /** With quotas, the sessions of every process as it reads them (`sharedSessions`). */
  readonly sessions: RedisSessionCounts | undefined
}

let prefixes = 0

/**
 * Two nodes (A and B) on one Redis (`node()` makes more), an admin connection to look at or
 * change its keys, and the manual time of their leases.
 */
export async function twoNodes(
  url: string,
  handlerOptions: RestHandlerOptions = {},
  participantOptions: Partial<RedisParticipantOptions> = {},
) {
  const prefix = `test${++prefixes}-${process.pid}:`
  const timers = manualSchedule()
  let ms = 0
  const time = {
    now: () => ms,
    /** Moves the leases' time on by `step` ms; the timers due by then run. */
    advance(step: number) {
      ms += step
      timers.advance(step)
    },
    /** Resolves once at least `n` timers are pending (a change waiting for acknowledgements). */
    until: (n: number) => timers.until(n),
  }
  const nodes: Node[] = []
  const node = async (): Promise<Node> => {
    const clock = new ManualClock(Date.now())
    const ds = createDatastore(writeModel(), { data: writeData(), clock, functions })
    const participant = await connectRedis(ds, {
      url,
      prefix,
      onError: () => {},
      leaseMs: LEASE_MS,
      now: time.now,
      schedule: timers.schedule,
      ...participantOptions,
    })
    // With quotas, counted through Redis as `serve --redis` counts them.
    const sessions = handlerOptions.quotas
      ? (participant.sessionCounts() as RedisSessionCounts)
      : undefined
    const options = sessions
      ? { ...handlerOptions, sharedCounts: participant.quotaCounts(), sharedSessions: sessions }
      : handlerOptions
    const fetch = toFetchHandler(
      participant.wrap(new ClusterWrites(ds, [participant]).wrap(createRestHandler(ds, options))),
    )
    const made = { ds, clock, participant, fetch, sessions }
    nodes.push(made)
    return made
  }
  const A = await node()
  const B = await node()
  const admin = new Redis(url)
  admin.on('error', () => {}) // the Redis-down test kills the server under it
  /** A client with its own cookie jar; `via` says which node answers. */
  const client = (userAgent = 'test-agent') => {
    let cookie: string | undefined
    const send = async (via: Node, path: string, init: RequestInit = {}): Promise<Reply> => {
      const headers: Record<string, string> = {
        'user-agent': userAgent,
        ...(init.headers as Record<string, string> | undefined),
      }
      if (cookie) headers.cookie = cookie
      const res = await via.fetch(new Request(`http://localhost${path}`, { ...init, headers }))
      const setCookie = res.headers.get('set-cookie')
      if (setCookie) cookie = /=;|Max-Age=0/.test(setCookie) ? undefined : setCookie.split(';')[0]
      const text = await res.text()
      return {
        status: res.status,
        json: (text === '' ? {} : JSON.parse(text)) as Json,
        setCookie,
        retryAfter: res.headers.get('retry-after'),
      }
    }
    return {
      get: (via: Node, path: string, headers?: Record<string, string>) =>
        send(via, path, headers ? { headers } : {}),
      post: (via: Node, path: string, body?: unknown, headers?: Record<string, string>) =>
        send(via, path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      get session() {
        return cookie?.split('=')[1]
      },
    }
  }
  return {
    A,
    B,
    node,
    admin,
    prefix,
    client,
    time,
    async close() {
      await Promise.all(nodes.map((n) => n.participant.close()))
      admin.disconnect()
    },
  }
}

/**
 * For a test file: a real Redis for the whole file (none where `missing` says why), and `setup`,
 * which makes two nodes on it for one test (closed after it).
 */
export function redisNodesForFile() {
  const missing = redisMissing()
  let server: RedisServer | undefined
  let nodes: Awaited<ReturnType<typeof twoNodes>> | undefined
  beforeAll(async () => {
    if (!missing) server = await startRedis()
  })
  afterEach(async () => {
    await nodes?.close()
    nodes = undefined
  })
  afterAll(async () => {
    await server?.stop()
  })
  const setup = async (
    ...options: Parameters<typeof twoNodes> extends [string, ...infer R] ? R : never
  ) => (nodes = await twoNodes(server!.url, ...options))
  return {
    missing,
    setup,
    /** The file's Redis server (a test kills and restarts it). */
    server: () => server!,
  }
}

/**
 * Polls `check` until it stops throwing (what another process learns through pub/sub). `ms` bounds
 * a hang, never a correct run: pub/sub takes milliseconds idle, and 3 s was a deadline that a
 * busy machine could reach.
 */
export async function eventually<T>(check: () => T | Promise<T>, ms = 30_000): Promise<T> {
  const until = Date.now() + ms
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > until) throw error
      await new Promise((r) => setTimeout(r, 10))
    }
  }
}
