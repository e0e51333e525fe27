/**
 * @module The live feed over HTTP (issue 50): server-sent events of the real `entistore serve` (the
 * built CLI, a child process on a socket, `GET /rest/$changes?$dataClasses=Item`) against a raw
 * node:http server that writes each saved row to every open stream (child/plain-sse-server.mjs),
 * both on the same data file. Subscribers are connections of the bench process
 * (bench/sse-client.ts); a write is a create (`POST /rest/Item?$method=update`, a new ID each time,
 * on one keep-alive connection), acknowledged when its reply has arrived. Then, per server, what
 * an idle stream costs it: its resident memory (settled after full collections) with `idle`
 * streams open, less before, ÷ the streams.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CHANGES_MODEL, itemRows, TRACKED } from './changes-data.ts'
import { measureLatency, type FeedRow, type FeedTarget, type IdleRow } from './feed-latency.ts'
import { settledRss, startNode, type Child } from './processes.ts'
import { httpClient } from './replication-lag.ts'
import { sseSubscribe } from './sse-client.ts'
import { CHILD, ORIGIN, serveArgs } from './suites/http.bench.ts'

export interface HttpFeedOptions {
  /** Items of the servers' data file. */
  readonly rows: number
  readonly subscribers: readonly number[]
  readonly writes: number
  readonly idle: number
  /** Where the model and data files are written. */
  readonly dir: string
  readonly startupTimeoutMs: number
}

const FEED_PATH = `/rest/$changes?$dataClasses=${TRACKED}`

interface Server {
  readonly label: string
  readonly child: Child
  readonly target: FeedTarget
  close(): Promise<void>
}

/** The model and data files of `rows` Items. */
function writeFiles(dir: string, rows: number): { model: string; data: string } {
  mkdirSync(dir, { recursive: true })
  const model = join(dir, 'changes-model.json')
  const data = join(dir, `changes-${rows}.json`)
  writeFileSync(model, JSON.stringify(CHANGES_MODEL))
  writeFileSync(data, JSON.stringify({ [TRACKED]: itemRows(rows) }))
  return { model, data }
}

async function start(
  label: string,
  args: string[],
  firstId: { next: number },
  timeoutMs: number,
): Promise<Server> {
  const { child, line } = await startNode(label, args, ORIGIN, timeoutMs)
  const origin = ORIGIN.exec(line)![0]
  const client = httpClient(origin)
  const target: FeedTarget = {
    label,
    subscribe: sseSubscribe(origin, FEED_PATH),
    write: async (i) => {
      const id = firstId.next++
      const reply = await client.send('POST', `/rest/${TRACKED}?$method=update`, {
        ID: id,
        name: `created ${id}`,
        city: 'Paris',
        age: 18 + (i % 60),
      })
      if (reply.status !== 200)
        throw new Error(`${label}: create ${id}: ${reply.status} ${JSON.stringify(reply.body)}`)
    },
  }
  return {
    label,
    child,
    target,
    close: async () => {
      client.close()
      await child.stop()
    },
  }
}

/** RSS an idle stream costs `server` (module note). */
async function idleRss(server: Server, n: number): Promise<IdleRow> {
  const before = await settledRss(server.child)
  const subs = Array.from({ length: n }, () => server.target.subscribe(() => {}))
  try {
    await Promise.all(subs.map((s) => s.ready))
    const after = await settledRss(server.child)
    return {
      impl: server.label,
      bytes: (after.bytes - before.bytes) / n,
      subscribers: n,
      what: `server RSS${before.stable && after.stable ? '' : ' (not settled)'}`,
    }
  } finally {
    for (const s of subs) s.close()
  }
}

/** Latency at each subscriber count, then the idle streams, on both servers in turn. */
export async function measureHttpFeed(
  o: HttpFeedOptions,
): Promise<{ feed: FeedRow[]; idle: IdleRow[] }> {
  const files = writeFiles(o.dir, o.rows)
  const firstId = { next: o.rows + 1 }
  const servers: Server[] = []
  try {
    servers.push(
      await start(
        'SSE: raw node:http',
        [CHILD('plain-sse-server.mjs'), files.data],
        firstId,
        o.startupTimeoutMs,
      ),
      await start('SSE: entistore serve', serveArgs(files), firstId, o.startupTimeoutMs),
    )
    const feed: FeedRow[] = []
    for (const n of o.subscribers)
      for (const s of servers)
        feed.push({ impl: s.label, latency: await measureLatency(s.target, n, o.writes) })
    const idle: IdleRow[] = []
    for (const s of servers) idle.push(await idleRss(s, o.idle))
    return { feed, idle }
  } finally {
    for (const s of servers) await s.close()
  }
}
