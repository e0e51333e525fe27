/**
 * @module How long a process lags behind another, as a client sees it: an update by key written
 * through process A, and the same entity read through process B until it shows the new value.
 * The cluster suites use it (suites/cluster.bench.ts between two `serve --postgres` processes,
 * suites/cluster-http.bench.ts between two `serve --postgres --redis`).
 *
 * Two passes, so that the figure means something whichever way the cluster acknowledges a write:
 *
 * - **After the 200**: B is read only once A's 200 has arrived. Where A answers at its COMMIT and
 *   B follows later, the time from the 200 to B's first reply showing the value is B's lag, and a
 *   first read that still shows the old value is a stale read after an acknowledged write (counted).
 *   Where A answers only once every live process applied the write, no read is stale and the time
 *   is one GET through B (the polling read's round trip, given beside it: the resolution).
 * - **From the send**: B is read again and again from the moment the write is sent. The time until
 *   B shows the value is the write's way through A, PostgreSQL and B's apply; beside it the time
 *   to A's 200, and how often B showed the value before A's 200 arrived (a write acknowledged once
 *   every process applied it: always, give or take the reply's own way back).
 */
import { Agent, request } from 'node:http'
import { quantile } from './http-load.ts'
import { count, ms } from './report.ts'

export interface HttpReply {
  readonly status: number
  readonly body: any
}

export interface HttpClient {
  /** One request, its JSON reply parsed; the session cookie the server set is sent again. */
  send(method: string, path: string, body?: unknown): Promise<HttpReply>
  /** The `name=value` of the session cookie last set, if any. */
  cookie(): string | undefined
  close(): void
}

/**
 * A client of `origin` that keeps its session cookie, as a browser or a 4D client does: on one
 * keep-alive connection of its own, or with `fresh` a new connection for every request (each may
 * reach another worker, as behind a load balancer). `cookie` (`name=value`) is sent from the first
 * request on.
 */
export function httpClient(
  origin: string,
  options: { readonly fresh?: boolean; readonly cookie?: string } = {},
): HttpClient {
  const agent = options.fresh ? false : new Agent({ keepAlive: true, maxSockets: 1 })
  let cookie = options.cookie
  const send = (method: string, path: string, body?: unknown) =>
    new Promise<HttpReply>((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body)
      const headers: Record<string, string> = {}
      if (text !== undefined) headers['content-type'] = 'application/json'
      if (cookie !== undefined) headers.cookie = cookie
      const req = request(`${origin}${path}`, { method, agent, headers }, (res) => {
        const set = res.headers['set-cookie']?.[0]
        if (set !== undefined) cookie = set.split(';', 1)[0]
        let reply = ''
        res.setEncoding('utf8')
        res.on('data', (d: string) => (reply += d))
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(reply) }))
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end(text)
    })
  return {
    send,
    cookie: () => cookie,
    close: () => (agent === false ? undefined : agent.destroy()),
  }
}

/** Sorted samples of one measure, in milliseconds. */
export type Sorted = Float64Array

export interface Lag {
  readonly samples: number
  /** After the 200: from A's 200 to the end of B's first GET that shows the value. */
  readonly afterAck: Sorted
  /** After the 200: first reads through B that still showed the old value. */
  readonly staleFirstReads: number
  /** One GET through B (every poll of both passes): the resolution of the measures. */
  readonly polls: Sorted
  /** From the send: from the write sent to the end of B's first GET that shows the value. */
  readonly sendToVisible: Sorted
  /** From the send: from the write sent to A's 200 (the write's latency, B polled meanwhile). */
  readonly sendToAck: Sorted
  /** From the send: samples where B's GET showing the value ended before A's 200 arrived. */
  readonly visibleBeforeAck: number
}

const GIVE_UP_MS = 10_000

/**
 * `samples` updates of `Item(k)` (k among the first `keys`, each with the `__STAMP` last
 * answered) through `writer`, read through `reader`, in each pass of the module note.
 */
export async function measureLag(
  writer: HttpClient,
  reader: HttpClient,
  samples: number,
  keys: number,
): Promise<Lag> {
  const stamps = new Map<number, number>()
  let price = 0
  // An update of one Item, sent; its reply checked and its stamp kept. Untimed: the stamp of an
  // Item not written yet is read first.
  const prepare = async (i: number) => {
    const key = 1 + ((i * 7) % keys)
    if (!stamps.has(key))
      stamps.set(key, (await writer.send('GET', `/rest/Item(${key})`)).body.__STAMP as number)
    const value = -1 - price++
    const write = async () => {
      const reply = await writer.send('POST', '/rest/Item?$method=update', {
        __KEY: key,
        __STAMP: stamps.get(key),
        price: value,
      })
      if (reply.status !== 200)
        throw new Error(`update of Item(${key}): ${reply.status} ${JSON.stringify(reply.body)}`)
      stamps.set(key, reply.body.__STAMP as number)
    }
    return { key, value, write }
  }
  const polls: number[] = []
  // One GET through B: its end time, and whether it showed the value.
  const poll = async (key: number, value: number): Promise<{ end: number; shows: boolean }> => {
    const asked = performance.now()
    const reply = await reader.send('GET', `/rest/Item(${key})`)
    const end = performance.now()
    polls.push(end - asked)
    if (reply.status !== 200)
      throw new Error(`GET Item(${key}) through B: ${reply.status} ${JSON.stringify(reply.body)}`)
    return { end, shows: reply.body.price === value }
  }

  const afterAck: number[] = []
  let staleFirstReads = 0
  for (let i = 0; i < samples; i++) {
    const { key, value, write } = await prepare(i)
    await write()
    const acknowledged = performance.now()
    for (let first = true; ; first = false) {
      const { end, shows } = await poll(key, value)
      if (shows) {
        afterAck.push(end - acknowledged)
        break
      }
      if (first) staleFirstReads++
      if (end - acknowledged > GIVE_UP_MS)
        throw new Error(`Item(${key}) showed no update through B within ${GIVE_UP_MS} ms`)
    }
  }

  const sendToVisible: number[] = []
  const sendToAck: number[] = []
  let visibleBeforeAck = 0
  for (let i = 0; i < samples; i++) {
    const { key, value, write } = await prepare(samples + i)
    const sent = performance.now()
    let acknowledged = NaN
    const written = write().then(() => (acknowledged = performance.now()))
    // Polled until B shows it; a failed write rejects `written`, which ends the loop too.
    let failed: unknown
    written.catch((e: unknown) => (failed = e))
    for (;;) {
      if (failed !== undefined) throw failed
      const { end, shows } = await poll(key, value)
      if (shows) {
        sendToVisible.push(end - sent)
        if (Number.isNaN(acknowledged) || end < acknowledged) visibleBeforeAck++
        break
      }
      if (end - sent > GIVE_UP_MS)
        throw new Error(`Item(${key}) showed no update through B within ${GIVE_UP_MS} ms`)
    }
    await written
    sendToAck.push(acknowledged - sent)
  }

  const sorted = (xs: number[]) => Float64Array.from(xs).sort()
  return {
    samples,
    afterAck: sorted(afterAck),
    staleFirstReads,
    polls: sorted(polls),
    sendToVisible: sorted(sendToVisible),
    sendToAck: sorted(sendToAck),
    visibleBeforeAck,
  }
}

/** The columns of `lagRows`, aligned. */
export const LAG_HEADERS = ['between', 'from → to', 'samples', 'p50', 'p99', 'max']
export const LAG_ALIGN = ['l', 'l', 'r', 'r', 'r', 'r'] as const

/** The rows of one measured pair, `between` naming the two processes. */
export function lagRows(between: string, lag: Lag): string[][] {
  const cell = (x: number) => `${ms(x)} ms`
  const row = (what: string, sorted: Sorted, label = between) => [
    label,
    what,
    count(sorted.length),
    cell(quantile(sorted, 0.5)),
    cell(quantile(sorted, 0.99)),
    cell(sorted.length ? sorted[sorted.length - 1]! : NaN),
  ]
  const n = count(lag.samples)
  return [
    row(
      `A's 200 → B's first GET showing the value (B read after the 200; ` +
        `stale first reads: ${count(lag.staleFirstReads)} of ${n})`,
      lag.afterAck,
    ),
    row(
      `write sent → B's first GET showing it (B read from the send; ` +
        `B showed it before A's 200: ${count(lag.visibleBeforeAck)} of ${n})`,
      lag.sendToVisible,
    ),
    row("write sent → A's 200 (the same writes)", lag.sendToAck),
    row(
      'one GET /rest/Item(k) through B, keep-alive',
      lag.polls,
      '(the polling read: the resolution of the lines above)',
    ),
  ]
}
