/**
 * @module The public benchmark's HTTP half (issue 22): what a user would run instead of
 * `entistore serve` to answer REST requests over the same rows (data.ts's people): json-server
 * 0.17 (the fixture server people use), an endpoint written by hand over an array in Express 5 and
 * in raw node:http (the floor); and Entistore twice, as `entistore serve` and inside Express 5
 * through `@entistore/rest/express`. Each server is a child process running what an application
 * runs (the built packages, the peers from node_modules); the load generator, its rounds and its
 * percentiles are the http suite's (http-load.ts), so every figure is from the same run.
 *
 * Three requests, each as its server spells it: a read by key, a read of 50 rows filtered on an
 * attribute without index (`city`), and an update of one attribute by key. The bodies differ in
 * shape (Entistore adds `__KEY`, `__STAMP`, `__ENTITIES`; json-server pretty-prints), and the
 * filters in semantics (Entistore's equality ignores case, the others' does not): said in the
 * report beside the figures.
 */
import type autocannon from 'autocannon'
import { MODEL, makePeople, CITIES } from '../data.ts'
import { compareLoad, type LoadOptions, type LoadResult } from '../http-load.ts'
import { cachedFiles, type DataFiles } from '../items.ts'
import { startNode, type Child } from '../processes.ts'
import { replies } from './adapters.bench.ts'
import { CHILD, ENTISTORE, ORIGIN } from './http.bench.ts'

export const HTTP_REQUESTS = ['get', 'list50', 'update'] as const
export type RequestId = (typeof HTTP_REQUESTS)[number]

export const REQUEST_TITLES: Record<RequestId, string> = {
  get: 'GET one row by key',
  list50: 'GET 50 rows filtered on city (no index)',
  update: 'update one attribute by key',
}

/** How a server spells each request (a random key, city or value from `r`). */
type Spelling = Record<RequestId, (r: () => number, rows: number) => autocannon.Request>

const JSON_HEADERS = { 'content-type': 'application/json' }
const key = (r: () => number, rows: number): number => 1 + Math.floor(r() * rows)
const city = (r: () => number): string => CITIES[Math.floor(r() * CITIES.length)]!

/** json-server's routes, which the hand-written servers copy. */
const ARRAY: Spelling = {
  get: (r, n) => ({ method: 'GET', path: `/people/${key(r, n)}` }),
  list50: (r) => ({ method: 'GET', path: `/people?city=${city(r)}&_limit=50` }),
  update: (r, n) => ({
    method: 'PATCH',
    path: `/people/${key(r, n)}`,
    headers: JSON_HEADERS,
    body: JSON.stringify({ age: 18 + Math.floor(r() * 52) }),
  }),
}

/** The Entity Data REST interface's. */
const REST: Spelling = {
  get: (r, n) => ({ method: 'GET', path: `/rest/Person(${key(r, n)})` }),
  // As a browser sends `$filter="city=Paris"`: the quotes percent-encoded.
  list50: (r) => ({ method: 'GET', path: `/rest/Person?$filter=%22city=${city(r)}%22&$top=50` }),
  update: (r, n) => ({
    method: 'POST',
    path: '/rest/Person?$method=update',
    headers: JSON_HEADERS,
    body: JSON.stringify({ __KEY: String(key(r, n)), age: 18 + Math.floor(r() * 52) }),
  }),
}

export interface HttpPeer {
  readonly id: string
  readonly label: string
  readonly kind: 'baseline' | 'entistore' | 'peer'
  readonly args: (f: DataFiles) => string[]
  readonly ready: RegExp
  readonly spelling: Spelling
}

export const HTTP_PEERS: readonly HttpPeer[] = [
  {
    id: 'raw',
    label: 'raw node:http, by hand over an array',
    kind: 'baseline',
    args: (f) => [CHILD('array-server.mjs'), 'raw', f.data],
    ready: /^raw at /,
    spelling: ARRAY,
  },
  {
    id: 'express-array',
    label: 'Express 5, by hand over an array',
    kind: 'peer',
    args: (f) => [CHILD('array-server.mjs'), 'express', f.data],
    ready: /^express at /,
    spelling: ARRAY,
  },
  {
    id: 'json-server',
    label: 'json-server',
    kind: 'peer',
    args: (f) => [CHILD('json-server.cjs'), f.data],
    ready: /^json-server at /,
    spelling: ARRAY,
  },
  {
    id: 'entistore-serve',
    label: 'entistore serve',
    kind: 'entistore',
    args: ENTISTORE.args,
    ready: ENTISTORE.ready,
    spelling: REST,
  },
  {
    id: 'entistore-express',
    label: 'Entistore in Express 5 (expressRest)',
    kind: 'entistore',
    args: (f) => [CHILD('adapter-server.mjs'), 'express', f.model, f.data],
    ready: /^express at /,
    spelling: REST,
  },
]

/** The model and data files of `n` people (data.ts's rows, the in-process half's), cached. */
export const peopleFiles = (n: number): DataFiles =>
  cachedFiles('people', 1, MODEL, n, () => ({ Person: makePeople(n) }))

export interface HttpCell {
  readonly peer: string
  readonly rps?: number
  readonly p50?: number
  readonly p99?: number
  readonly ok?: number
  readonly failed?: number
  readonly error?: string
}

export interface HttpResult {
  readonly size: number
  /** `startup`: ms from spawn to the ready line (rps holds it), the others: the load. */
  readonly request: RequestId | 'startup'
  readonly cells: HttpCell[]
}

export interface PublicHttpOptions {
  readonly sizes: readonly number[]
  readonly load: LoadOptions
  readonly startupTimeoutMs: number
  readonly onResult?: (r: HttpResult) => void
}

/** Every server at every size: its start-up, then the three requests under load. */
export async function runPublicHttp(o: PublicHttpOptions): Promise<HttpResult[]> {
  const out: HttpResult[] = []
  const emit = (r: HttpResult): void => {
    out.push(r)
    o.onResult?.(r)
  }
  for (const n of o.sizes) {
    const files = peopleFiles(n)
    const children: Child[] = []
    try {
      const started: { peer: HttpPeer; origin?: string; ms?: number; error?: string }[] = []
      for (const peer of HTTP_PEERS) {
        try {
          const s = await startNode(peer.label, peer.args(files), peer.ready, o.startupTimeoutMs)
          children.push(s.child)
          const origin = ORIGIN.exec(s.line)![0]
          // Every request answered with a 200 and JSON before any is loaded.
          for (const id of HTTP_REQUESTS) await replies(origin, (r) => peer.spelling[id](r, n), 2)
          started.push({ peer, origin, ms: s.ms })
        } catch (e) {
          started.push({ peer, error: e instanceof Error ? e.message : String(e) })
        }
      }
      emit({
        size: n,
        request: 'startup',
        cells: started.map((s) =>
          s.error !== undefined
            ? { peer: s.peer.id, error: s.error }
            : { peer: s.peer.id, rps: s.ms },
        ),
      })
      const up = started.filter((s) => s.origin !== undefined)
      for (const id of HTTP_REQUESTS) {
        const results = await compareLoad(
          up.map((s) => ({
            label: s.peer.id,
            origin: s.origin!,
            request: (r: () => number) => s.peer.spelling[id](r, n),
          })),
          o.load,
        )
        const byPeer = new Map<string, LoadResult>(results.map((x) => [x.label, x]))
        emit({
          size: n,
          request: id,
          cells: started.map((s): HttpCell => {
            const x = byPeer.get(s.peer.id)
            if (!x) return { peer: s.peer.id, error: s.error ?? 'not started' }
            return {
              peer: s.peer.id,
              rps: x.rps,
              p50: x.p50,
              p99: x.p99,
              ok: x.ok,
              failed: x.non2xx + x.errors,
            }
          }),
        })
      }
    } finally {
      for (const c of children) await c.stop()
    }
  }
  return out
}
