/**
 * @module For the fault tests of the cluster (faults.test.ts): a write load as clients behind a
 * load balancer make it, a ledger of what was acknowledged, and the checks that no fault may
 * break. Test-only.
 *
 * - **The load** (`startWriteLoad`): clients (16 by default), every request on a fresh
 *   connection, so that consecutive requests of one client reach different processes (node:cluster
 *   or the test's round-robin front hand each new connection to the next). Each client loops:
 *   create an Item with a name of its own, update it with the `__STAMP` of the create's reply; every
 *   fourth turn instead an `$atomic` batch of 2 or 3 creates, their names sharing the batch's tag.
 *   Every write answered 200 goes into the ledger with the stamp and name of its reply.
 * - **No stale read**: right after each acknowledged write the client reads the entity back, on a
 *   fresh connection again (most often another process). The answer must be the acknowledged
 *   version or a newer one (its stamp ≥ the acknowledged one, the same name at the same stamp),
 *   or an honest refusal (503 with `__ERROR`); never an older version, never a 404 for an
 *   acknowledged create. Each stale answer is kept with its ledger entry and the process that gave
 *   it (asked at once on the same connection: `/health` with `--health-details`).
 * - **After recovery** (`pinProcesses`, `checkEverywhere`): every process answers `/health` 200
 *   and a read 200 within a bound, and holds every acknowledged write (at its stamp or newer, the
 *   newer being the update sent without a 200), nothing that was not sent, every batch whole or
 *   absent, and the same entities as the others. With `--workers`, a process is reached through a
 *   keep-alive connection (node:cluster gives a connection to one worker), the worker told by
 *   `/health` (which needs `--health-details`).
 *
 * A request whose connection dies (a killed worker, a cut proxy) is counted as unanswered: that is
 * no answer, neither stale nor acknowledged; one that has no answer after REQUEST_TIMEOUT_MS is
 * given up, and counted apart. A write answered 503 is not acknowledged, and may or
 * may not have been applied (its COMMIT's reply lost): the ledger keeps the update it sent, which
 * may appear later. Any other answer (a 500, a 409 on its own entity) is unexpected, and kept.
 */
import { Agent } from 'node:http'
import { send, type Answer, type Exchange } from '../../../rest/src/node/conformance.fixture.js'

/** One acknowledged write of one entity: what its reply said. */
export interface Acknowledged {
  readonly key: string
  readonly name: string
  readonly stamp: number
  readonly client: number
  /** The batch's tag, for an entity created by an `$atomic` batch. */
  readonly batch?: string
  /** `Date.now()` when the 200 arrived. */
  readonly at: number
}

/** Where the run is: before the fault, during it, after the recovery (as the test says). */
export type Phase = 'before' | 'during' | 'after'

/** A read after an acknowledged write that answered an older version, or no entity. */
export interface StaleRead {
  readonly phase: Phase
  readonly write: Acknowledged
  readonly status: number
  readonly answer: string
  /** Milliseconds between the write's 200 and the read's answer. */
  readonly afterMs: number
  /** The process that answered (its pid, worker, global stamp), asked right after. */
  readonly answeredBy: string
}

/** An answer no fault excuses (a 500, a 409 on the client's own entity…). */
export interface Unexpected {
  readonly phase: Phase
  readonly request: string
  readonly status: number
  readonly answer: string
  /** The process that answered, asked right after. */
  readonly answeredBy: string
}

export interface Ledger {
  /** The last acknowledged version of each entity, by key. */
  readonly entities: Map<string, Acknowledged>
  /** Every name sent (created or updated to), acknowledged or not. */
  readonly sent: Set<string>
  /** Every `$atomic` batch sent, acknowledged or not: its tag, its names. */
  readonly batches: Map<string, readonly string[]>
  /** The name of an update sent without a 200, by key: it may have been applied. */
  readonly unacknowledged: Map<string, string>
  /** Writes answered 200 (a batch counts as one). */
  writes: number
  /** Writes answered 503 with `__ERROR`. */
  writesRefused: number
  /** Reads after an acknowledged write. */
  reads: number
  /** Of them, answered 503 with `__ERROR`. */
  readsRefused: number
  readonly stale: StaleRead[]
  /** Requests whose connection died. */
  unanswered: number
  /** Requests given up after REQUEST_TIMEOUT_MS without an answer. */
  readonly timedOut: { readonly phase: Phase; readonly request: string }[]
  readonly unexpected: Unexpected[]
}

export interface WriteLoad {
  readonly ledger: Ledger
  /** Set by the test as the fault comes and goes; each stale read says when it was. */
  phase: Phase
  /**
   * Resolves once `count` more writes are acknowledged than when it was called, with the
   * milliseconds it took; rejects after `withinMs`.
   */
  acknowledgedMore(count: number, withinMs: number): Promise<number>
  /** Stops the clients; resolves once each finished its turn. */
  stop(): Promise<Ledger>
}

/**
 * A request that takes longer is given up (a client does not wait forever); startWriteLoad's
 * `requestTimeoutMs` sets it (a process stopped for 10 s answers its requests when it resumes).
 */
const REQUEST_TIMEOUT_MS = 10_000
/** After a refusal or a dead connection, a client waits this long, not to spin on a fault. */
const PAUSE_MS = 50

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A keep-alive agent of one socket that can tell whether it had to open another. */
function pinnedAgent(): { agent: Agent; sockets: () => number } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  let sockets = 0
  const open = agent.createConnection.bind(agent)
  agent.createConnection = (...args: Parameters<Agent['createConnection']>) => {
    sockets++
    return open(...args)
  }
  return { agent, sockets: () => sockets }
}

/** The answer to a request on a connection of its own, and that connection, kept open. */
interface Sent {
  /** The answer, or why there is none: the connection died, or REQUEST_TIMEOUT_MS passed. */
  readonly reply: Answer | 'dead' | 'late'
  /** Which process answered, asked on the same connection (`/health` with its details). */
  who(): Promise<string>
  close(): void
}

/** Sends `exchange` on a new connection, given up after `timeoutMs`. */
async function sendAlone(base: string, exchange: Exchange, timeoutMs: number): Promise<Sent> {
  const { agent, sockets } = pinnedAgent()
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs)
  })
  const sent = send(base, { ...exchange, agent }).catch(() => 'dead' as const)
  const reply = await Promise.race([sent, late])
  clearTimeout(timer)
  return {
    reply,
    async who() {
      try {
        const health = await send(base, { target: '/health', agent })
        if (sockets() !== 1) return 'unknown (its connection was closed)'
        const h = parsed(health)
        return `pid ${h?.pid}, worker ${h?.worker}, globalStamp ${h?.globalStamp}, /health ${health.status} ${h?.status}`
      } catch (error) {
        return `unknown (${String(error)})`
      }
    },
    close: () => agent.destroy(),
  }
}

const text = (a: Answer) => a.body.toString('utf8')

function parsed(a: Answer): any {
  try {
    return JSON.parse(text(a))
  } catch {
    return undefined
  }
}

/** A request as a line of a message. */
const shown = (exchange: Exchange) =>
  `${exchange.method ?? 'GET'} ${exchange.target} ${exchange.body ?? ''}`.trim()

/** A 503 whose body is an `__ERROR`: a refusal a client can act on. */
const refusal = (a: Answer) => a.status === 503 && Array.isArray(parsed(a)?.__ERROR)

/** A POST of `body` as JSON. */
export const postJson = (target: string, body: unknown): Exchange => ({
  method: 'POST',
  target,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

/** Starts `clients` clients writing through `url` (see the module comment) until `stop`. */
export function startWriteLoad(
  url: string,
  { clients = 16, requestTimeoutMs = REQUEST_TIMEOUT_MS } = {},
): WriteLoad {
  const ledger: Ledger = {
    entities: new Map(),
    sent: new Set(),
    batches: new Map(),
    unacknowledged: new Map(),
    writes: 0,
    writesRefused: 0,
    reads: 0,
    readsRefused: 0,
    stale: [],
    unanswered: 0,
    timedOut: [],
    unexpected: [],
  }
  let stopped = false
  const waiting: { count: number; resolve: () => void }[] = []

  const acknowledge = (entries: readonly Acknowledged[]) => {
    ledger.writes++
    for (const e of entries) ledger.entities.set(e.key, e)
    for (const w of waiting.filter((w) => ledger.writes >= w.count)) {
      waiting.splice(waiting.indexOf(w), 1)
      w.resolve()
    }
  }

  const unexpected = async (exchange: Exchange, a: Answer, sent: Sent) =>
    ledger.unexpected.push({
      phase: load.phase,
      request: shown(exchange),
      status: a.status,
      answer: text(a).slice(0, 500),
      answeredBy: await sent.who(),
    })

  /** Sends a write; its reply's JSON when acknowledged, else undefined (counted, paused). */
  const sendWrite = async (exchange: Exchange): Promise<any> => {
    const sent = await sendAlone(url, exchange, requestTimeoutMs)
    const a = sent.reply
    try {
      if (typeof a !== 'string' && a.status === 200) return parsed(a)
      if (a === 'dead') ledger.unanswered++
      else if (a === 'late') ledger.timedOut.push({ phase: load.phase, request: shown(exchange) })
      else if (refusal(a)) ledger.writesRefused++
      else await unexpected(exchange, a, sent)
    } finally {
      sent.close()
    }
    await pause(PAUSE_MS)
    return undefined
  }

  /** Reads `write`'s entity back on a fresh connection: the acknowledged version or newer. */
  const readBack = async (write: Acknowledged): Promise<void> => {
    const exchange = { target: `/rest/Item(${write.key})` }
    const sent = await sendAlone(url, exchange, requestTimeoutMs)
    try {
      await checkRead(write, exchange, sent)
    } finally {
      sent.close()
    }
  }

  const checkRead = async (write: Acknowledged, exchange: Exchange, sent: Sent) => {
    const a = sent.reply
    if (a === 'dead') return void ledger.unanswered++
    if (a === 'late')
      return void ledger.timedOut.push({ phase: load.phase, request: shown(exchange) })
    ledger.reads++
    const body = parsed(a)
    const fresh =
      a.status === 200 &&
      typeof body?.__STAMP === 'number' &&
      (body.__STAMP > write.stamp || (body.__STAMP === write.stamp && body.name === write.name))
    if (fresh) return
    if (refusal(a)) return void ledger.readsRefused++
    if (a.status !== 200 && a.status !== 404) return void (await unexpected(exchange, a, sent))
    const afterMs = Date.now() - write.at
    ledger.stale.push({
      phase: load.phase,
      write,
      status: a.status,
      answer: text(a).slice(0, 300),
      afterMs,
      answeredBy: await sent.who(),
    })
  }

  const created = (body: any, client: number, batch?: string): Acknowledged => ({
    key: String(body.__KEY),
    name: body.name as string,
    stamp: body.__STAMP as number,
    client,
    ...(batch === undefined ? {} : { batch }),
    at: Date.now(),
  })

  const client = async (c: number): Promise<void> => {
    for (let i = 0; !stopped; i++) {
      if (i % 4 === 3) {
        const tag = `b${c}-${i}`
        const names = Array.from({ length: i % 8 === 3 ? 2 : 3 }, (_, j) => `${tag}-${j}`)
        names.forEach((n) => ledger.sent.add(n))
        ledger.batches.set(tag, names)
        const body = await sendWrite(
          postJson(
            '/rest/Item?$method=update&$atomic=true',
            names.map((name) => ({ name })),
          ),
        )
        if (body === undefined) continue
        const entries = (body.__ENTITIES as any[]).map((e) => created(e, c, tag))
        acknowledge(entries)
        for (const e of entries) await readBack(e)
        continue
      }
      const name = `c${c}-${i}`
      ledger.sent.add(name)
      const made = await sendWrite(postJson('/rest/Item?$method=update', { name }))
      if (made === undefined) continue
      const first = created(made, c)
      acknowledge([first])
      await readBack(first)
      const renamed = `${name}+`
      ledger.sent.add(renamed)
      const update = { __KEY: first.key, __STAMP: first.stamp, name: renamed }
      const changed = await sendWrite(postJson('/rest/Item?$method=update', update))
      if (changed === undefined) {
        ledger.unacknowledged.set(first.key, renamed)
        continue
      }
      const second = created(changed, c)
      acknowledge([second])
      await readBack(second)
    }
  }

  const running = Promise.all(Array.from({ length: clients }, (_, c) => client(c)))
  const load: WriteLoad = {
    ledger,
    phase: 'before',
    acknowledgedMore(count, withinMs) {
      const start = Date.now()
      return new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(w), 1)
          reject(
            new Error(
              `fewer than ${count} writes acknowledged within ${withinMs} ms: ${summary(ledger)}`,
            ),
          )
        }, withinMs)
        const w = {
          count: ledger.writes + count,
          resolve: () => {
            clearTimeout(timer)
            resolve(Date.now() - start)
          },
        }
        waiting.push(w)
      })
    },
    async stop() {
      stopped = true
      await running
      return ledger
    },
  }
  return load
}

/** The ledger's counts in one line, for messages and logs. */
export function summary(ledger: Ledger): string {
  const stalePhases = (['before', 'during', 'after'] as const)
    .map((p) => `${ledger.stale.filter((s) => s.phase === p).length} ${p} the fault`)
    .join(', ')
  return (
    `${ledger.writes} writes acknowledged (${ledger.entities.size} entities), ` +
    `${ledger.writesRefused} refused; ${ledger.reads} reads after them, ` +
    `${ledger.readsRefused} refused, ${ledger.stale.length} stale (${stalePhases}); ` +
    `${ledger.unanswered} connections died, ${ledger.timedOut.length} timed out, ` +
    `${ledger.unexpected.length} unexpected`
  )
}

/** One process, reached through a connection of its own. */
export interface Pinned {
  readonly pid: number
  /** Its worker number under `--workers`. */
  readonly worker: number | undefined
  /** Sends on this process's connection; throws if that connection was lost (another would
   * reach another process). */
  send(exchange: Exchange): Promise<Answer>
  close(): void
}

/**
 * Reaches `count` different processes through `urls` (taken in turn, each attempt on a new
 * connection), each one answering `/health` 200 and a read of an Item 200 on its connection;
 * rejects after `withinMs` saying what answered. Resolves with the milliseconds it took.
 */
export async function pinProcesses(
  urls: readonly string[],
  count: number,
  withinMs: number,
): Promise<{ processes: Pinned[]; ms: number }> {
  const start = Date.now()
  const found = new Map<number, Pinned>()
  const seen: string[] = []
  for (let i = 0; found.size < count; i++) {
    if (Date.now() - start > withinMs) {
      for (const p of found.values()) p.close()
      throw new Error(
        `${found.size} of ${count} processes answered within ${withinMs} ms; the last answers: ` +
          seen.slice(-10).join('; '),
      )
    }
    const { agent, sockets } = pinnedAgent()
    const base = urls[i % urls.length]!
    const pinned: Pinned = {
      pid: 0,
      worker: undefined,
      async send(exchange) {
        const a = await send(base, { ...exchange, agent })
        if (sockets() !== 1) throw new Error('the pinned connection was closed by the server')
        return a
      },
      close: () => agent.destroy(),
    }
    try {
      const health = await pinned.send({ target: '/health' })
      const details = parsed(health)
      seen.push(`/health ${health.status} pid ${details?.pid}`)
      if (health.status === 200 && !found.has(details.pid)) {
        const read = await pinned.send({ target: '/rest/Item?$top=1' })
        seen.push(`read ${read.status}`)
        if (read.status === 200) {
          found.set(details.pid, { ...pinned, pid: details.pid, worker: details.worker })
          continue
        }
      }
    } catch (error) {
      seen.push(String(error))
    }
    pinned.close()
    await pause(PAUSE_MS)
  }
  return { processes: [...found.values()], ms: Date.now() - start }
}

/** What one process holds that breaks the ledger's promises (every list empty when it keeps them). */
export interface Holdings {
  readonly pid: number
  readonly worker: number | undefined
  readonly entities: number
  /** Each key held with its stamp, in key order: the same in every process once all is applied. */
  readonly fingerprint: string
  /** Acknowledged writes missing or older (the ledger entry, what the process holds). */
  readonly lost: { write: Acknowledged; held: string }[]
  /** Names held that no client sent. */
  readonly unknown: string[]
  /** Batches held in part: the tag, the names held. */
  readonly partial: { batch: string; held: string[] }[]
}

/** Reads every Item through `process` and compares them with `ledger`. */
export async function holdings(process: Pinned, ledger: Ledger): Promise<Holdings> {
  const read = await process.send({ target: '/rest/Item?$top=1000000&$attributes=name' })
  if (read.status !== 200) throw new Error(`reading every Item: ${read.status} ${text(read)}`)
  const held = new Map<string, { name: string; stamp: number }>()
  for (const e of parsed(read).__ENTITIES as { __KEY: string; __STAMP: number; name: string }[])
    held.set(String(e.__KEY), { name: e.name, stamp: e.__STAMP })
  const lost: Holdings['lost'] = []
  for (const write of ledger.entities.values()) {
    const h = held.get(write.key)
    const ok =
      h !== undefined &&
      (h.stamp === write.stamp
        ? h.name === write.name
        : h.stamp > write.stamp && h.name === ledger.unacknowledged.get(write.key))
    if (!ok) lost.push({ write, held: h === undefined ? 'nothing' : JSON.stringify(h) })
  }
  const names = new Set([...held.values()].map((h) => h.name))
  const partial: Holdings['partial'] = []
  for (const [batch, members] of ledger.batches) {
    const there = members.filter((n) => names.has(n))
    if (there.length !== 0 && there.length !== members.length) partial.push({ batch, held: there })
  }
  return {
    pid: process.pid,
    worker: process.worker,
    entities: held.size,
    fingerprint: [...held]
      .map(([key, h]) => `${key}:${h.stamp}`)
      .sort()
      .join(','),
    lost,
    unknown: [...names].filter((n) => n !== 'seed' && !ledger.sent.has(n)),
    partial,
  }
}
