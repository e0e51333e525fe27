/**
 * @module Two processes serving one datastore through one Redis, inside one test process: two
 * datastores on the same model and data, each with its REST handler behind its own Redis
 * participant (its own connections), and clients with a cookie jar that send each request
 * through either. Each call gets its own key prefix, so tests sharing a server do not meet.
 * Test-only.
 */
import { createDatastore, ManualClock, type Datastore } from '@entistore/core'
import { createRestHandler, toFetchHandler, type RestHandlerOptions } from '@entistore/rest'
import { Redis } from 'ioredis'
import { writeData, writeModel } from '../../../core/src/txn/writes.fixture.js'
import { connectRedis, type RedisParticipant } from './redis-participant.js'
import { ClusterWrites } from './cluster-core.js'

export type Json = Record<string, any>

export interface Reply {
  readonly status: number
  readonly json: Json
  readonly setCookie: string | null
}

export interface Node {
  readonly ds: Datastore
  readonly clock: ManualClock
  readonly participant: RedisParticipant
  readonly fetch: (request: Request) => Promise<Response>
}

let prefixes = 0

/** Two nodes (A and B) on one Redis, and an admin connection to look at or change its keys. */
export async function twoNodes(url: string, handlerOptions: RestHandlerOptions = {}) {
  const prefix = `test${++prefixes}-${process.pid}:`
  const node = async (): Promise<Node> => {
    const clock = new ManualClock(Date.now())
    const ds = createDatastore(writeModel(), { data: writeData(), clock })
    const participant = await connectRedis(ds, { url, prefix, onError: () => {} })
    const fetch = toFetchHandler(
      new ClusterWrites(ds, [participant]).wrap(createRestHandler(ds, handlerOptions)),
    )
    return { ds, clock, participant, fetch }
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
      return { status: res.status, json: (text === '' ? {} : JSON.parse(text)) as Json, setCookie }
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
    admin,
    prefix,
    client,
    async close() {
      await Promise.all([A.participant.close(), B.participant.close()])
      admin.disconnect()
    },
  }
}

/** Polls `check` until it stops throwing (what another process learns through pub/sub). */
export async function eventually<T>(check: () => T | Promise<T>, ms = 3000): Promise<T> {
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
