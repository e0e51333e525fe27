/**
 * Faults under a write load, with real engines (issue 29): PostgreSQL and Redis are real servers,
 * the processes real `entistore serve` children. Sixteen clients write through one URL, every
 * request on a fresh connection, and read each acknowledged write back at once
 * (fault-load.fixture.ts); in the middle of it:
 *
 * 1. one worker of `serve --workers 3 --postgres --redis` that is not the writer is killed with
 *    SIGKILL (the primary starts another);
 * 2. PostgreSQL is stopped at once (a crash) and started again FAULT_MS later;
 * 3. Redis is killed (it saves nothing: it comes back empty) and started again FAULT_MS later;
 * 4. the writer (issue 48: the process that runs every write, the others forward theirs to it)
 *    is killed with SIGKILL: another takes over, every write sent meanwhile is acknowledged once
 *    or refused unapplied;
 * 5. the writer is stopped with SIGSTOP for STALL_MS, then continued: another takes over while it
 *    sleeps, and nothing the old writer does when it wakes is accepted (its term is fenced);
 * 6. of three separate `serve --postgres --redis` processes behind a round-robin front, one
 *    reaches PostgreSQL through a TCP proxy that is cut (its connections destroyed, new ones
 *    refused), then healed. Within REFUSAL_MS the cut process answers reads 503 (9134, with
 *    Retry-After) and `/health` 503, while the others go on acknowledging writes.
 *
 * Meanwhile two sessions contend for one entity's lock, every request on a fresh connection
 * (lock-contention.fixture.ts): the lock is never granted to one while the other holds it.
 *
 * In each case: no read after an acknowledged write answers an older version or a 404 (a 503
 * with `__ERROR` is an honest refusal); no request is left without an answer or a closed
 * connection; after recovery, writes are acknowledged again within RECOVERY_MS, every process
 * answers `/health` and a read with 200 within RECOVERY_MS, and each holds every acknowledged
 * write, every batch whole or absent, nothing unsent, and the same entities at the same stamps as
 * the others.
 */
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  onTestFailed,
} from 'vitest'
import { json, send, type Answer } from '../../../rest/src/node/conformance.fixture.js'
import {
  shopFiles,
  startCli,
  stopChildren,
  type CliProcess,
} from '../persist/cli-process.fixture.js'
import {
  holdings,
  pinProcesses,
  postJson,
  startWriteLoad,
  summary,
  type Holdings,
  type WriteLoad,
} from './fault-load.fixture.js'
import { LOCK_TARGET, startLockContention } from './lock-contention.fixture.js'
import { postgresSkip, startPostgres, type PostgresServer } from './postgres-server.fixture.js'
import { redisMissing, startRedis, type RedisServer } from './redis-server.fixture.js'
import { startTcpProxy } from './tcp-proxy.fixture.js'

const skip = postgresSkip ?? redisMissing()
const { model, data } = shopFiles('faults', ['seed'])

/** Writes acknowledged before the fault: every process is serving under the load. */
const WARM_WRITES = 200
/** How long a fault lasts (a worker killed is restarted by the primary meanwhile). */
const FAULT_MS = 1500
/**
 * After recovery, writes must be acknowledged again and every process must answer `/health` and
 * a read within this (a worker restarted loads TypeScript under tsx, a busy CI machine is slow).
 */
const RECOVERY_MS = 20_000
/**
 * The bound of read-your-writes (`--max-lag`): a process that cannot follow the others for this
 * long answers reads 503; a write waits about twice this at most for a process that died.
 */
const MAX_LAG_MS = 500
/**
 * The cut process must refuse reads within this: its bound (MAX_LAG_MS) and a wide margin for a
 * busy machine.
 */
const REFUSAL_MS = 10_000
/** How long the writer sleeps under SIGSTOP (the fault). */
const STALL_MS = 10_000
/**
 * Another process runs the writes within this once the writer is killed or stopped: what the
 * issue promises is 3 s for a kill (measured: docs/durability.md), 5 s for service back; the
 * margin is for a busy CI machine.
 */
const TAKEOVER_MS = 8_000
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

let pg: PostgresServer
let redis: RedisServer

beforeAll(async () => {
  if (skip === undefined) pg = await startPostgres()
})
afterAll(async () => {
  await pg?.stop()
})
// A Redis of its own for each test: nothing a test's processes left there meets the next.
beforeEach(async () => {
  if (skip === undefined) redis = await startRedis()
})
afterEach(async () => {
  stopChildren()
  await redis?.stop()
})

const serveArgs = (postgres: string) => [
  'serve',
  ...['-m', model, '-d', data, '--port', '0'],
  ...['--postgres', postgres, '--redis', redis.url, '--health-details'],
  ...['--max-lag', String(MAX_LAG_MS)],
]

/** `serve --workers 3 --postgres --redis` on a fresh database. */
async function threeWorkers(): Promise<CliProcess> {
  return startCli([...serveArgs(await pg.freshDatabase()), '--workers', '3'], {
    ready: 'Workers: 3 processes share port',
  })
}

/** What the test says of its run (the measures of issue 29: stale reads, refusals, recovery). */
type Annotate = (message: string) => Promise<unknown>

interface Fault {
  /** Where the clients send their requests. */
  readonly front: string
  /** Through which every process is reached (taken in turn). */
  readonly urls: readonly string[]
  /** Called once the load is warm; the fault, and as long as it lasts. */
  readonly fault: (load: WriteLoad) => Promise<void>
  /** The recovery (nothing: a killed worker is restarted by the primary). */
  readonly heal?: () => Promise<void>
  /** What the fault itself must have shown: compared with the rest. */
  readonly observed?: () => { actual: unknown; expected: unknown }
  /**
   * Requests neither answered nor closed that the fault may leave: a worker killed
   * while node:cluster's primary hands it a connection never takes it, and the primary keeps its
   * copy open (Node's RoundRobinHandle, nodejs/node#21746): its client waits until it gives up,
   * as it would for a machine that died. @default 0
   */
  readonly lostHandoffs?: number
  /** How long a client waits for an answer before it gives up. @default the load's */
  readonly requestTimeoutMs?: number
}

/** How many, and the first few in full (the ledger entry, the answer). */
const firsts = <T>(list: readonly T[]) => ({ count: list.length, first: list.slice(0, 3) })
const NONE = firsts([])

/**
 * The load through `front`; `fault` once it is warm, then `heal`; then the checks of the module
 * comment through `urls`, in one comparison, so that a run that fails says every way it failed.
 */
async function underLoad(annotate: Annotate, o: Fault): Promise<void> {
  const timeout = o.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: o.requestTimeoutMs }
  const load = startWriteLoad(o.front, timeout)
  // Two sessions contend for one entity's lock meanwhile: never held by both at once.
  load.ledger.sent.add(LOCK_TARGET)
  const locks = await startLockContention(o.front, timeout)
  try {
    await load.acknowledgedMore(WARM_WRITES, 60_000)
    load.phase = 'during'
    await o.fault(load)
    const healing = Date.now()
    await o.heal?.()
    load.phase = 'after'
    await load.acknowledgedMore(100, RECOVERY_MS)
    await annotate(`writes acknowledged again ${Date.now() - healing} ms after the recovery`)
  } finally {
    await Promise.all([load.stop(), locks.stop()])
  }
  const ledger = load.ledger
  const lockLedger = locks.ledger
  await annotate(summary(ledger))
  await annotate(
    `locks: ${lockLedger.granted} granted, ${lockLedger.refused} refused (held by the other), ` +
      `${lockLedger.failed} not answered, ${lockLedger.twice.length} granted twice`,
  )
  const { processes, ms } = await pinProcesses(o.urls, 3, RECOVERY_MS)
  let held: Holdings[]
  try {
    await annotate(`every process answered /health and a read after ${ms} ms`)
    held = await Promise.all(processes.map((p) => holdings(p, ledger)))
  } finally {
    for (const p of processes) p.close()
  }
  const observed = o.observed?.()
  const of = (h: Holdings) => `pid ${h.pid} (worker ${h.worker}), ${h.entities} entities`
  expect({
    stale: firsts(ledger.stale),
    unexpected: firsts(ledger.unexpected),
    lockedTwice: firsts(lockLedger.twice),
    // A request neither answered nor closed: its client waits until it gives up.
    timedOut: ledger.timedOut.length <= (o.lostHandoffs ?? 0) ? [] : ledger.timedOut,
    processes: held.map((h) => ({
      process: of(h),
      lost: firsts(h.lost),
      unknown: firsts(h.unknown),
      partial: firsts(h.partial),
    })),
    sameEverywhere: new Set(held.map((h) => h.fingerprint)).size === 1,
    enoughWrites: ledger.writes >= WARM_WRITES + 100,
    fault: observed?.actual,
  }).toEqual({
    stale: NONE,
    unexpected: NONE,
    lockedTwice: NONE,
    timedOut: [],
    processes: held.map((h) => ({ process: of(h), lost: NONE, unknown: NONE, partial: NONE })),
    sameEverywhere: true,
    enoughWrites: true,
    fault: observed?.expected,
  })
}

/** Whether no process has this pid any more. */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return false
  } catch {
    return true
  }
}

interface Health {
  readonly status: number
  readonly pid: number
  readonly worker?: number
  /** Whether it runs the writes (one writer). */
  readonly writer?: boolean
}

/** The pid and worker number of the process that answers a fresh connection. */
async function health(url: string): Promise<Health> {
  const answer = await send(url, { target: '/health' })
  return { ...JSON.parse(answer.body.toString('utf8')), status: answer.status }
}

/**
 * A process that `matches` (asked on fresh connections: each reaches the next worker); one that
 * does not answer within a second (stopped) is passed over. Rejects after `withinMs`.
 */
async function findProcess(
  url: string,
  matches: (h: Health) => boolean,
  withinMs = TAKEOVER_MS,
): Promise<Health> {
  const start = Date.now()
  for (;;) {
    const answer = await Promise.race([
      health(url).catch(() => undefined),
      pause(1000).then(() => undefined),
    ])
    if (answer && matches(answer)) return answer
    if (Date.now() - start > withinMs) throw new Error(`no process as wanted in ${withinMs} ms`)
    await pause(20)
  }
}

/** The process that says it is the writer (not `except`). */
const findWriter = (url: string, except = 0) =>
  findProcess(url, (h) => h.writer === true && h.pid !== except)

describe.skipIf(skip !== undefined)('faults under a write load of 16 clients', () => {
  it('a follower killed with SIGKILL', { timeout: 120_000 }, async ({ annotate }) => {
    const cluster = await threeWorkers()
    let killed = 0
    await underLoad(annotate, {
      front: cluster.url,
      urls: [cluster.url],
      fault: async () => {
        killed = (await findProcess(cluster.url, (h) => h.writer === false)).pid
        process.kill(killed, 'SIGKILL')
        // The primary starts another worker meanwhile.
        await pause(FAULT_MS)
      },
      observed: () => ({ actual: { killed: isGone(killed) }, expected: { killed: true } }),
      lostHandoffs: 1,
    })
  })

  it('the writer killed with SIGKILL', { timeout: 120_000 }, async ({ annotate }) => {
    const cluster = await threeWorkers()
    let killed = 0
    let takeover = Infinity
    await underLoad(annotate, {
      front: cluster.url,
      urls: [cluster.url],
      fault: async (load) => {
        killed = (await findWriter(cluster.url)).pid
        const since = Date.now()
        process.kill(killed, 'SIGKILL')
        const next = await findWriter(cluster.url, killed)
        takeover = Date.now() - since
        const back = await load.acknowledgedMore(16, RECOVERY_MS)
        await annotate(
          `the writer (pid ${killed}) killed: pid ${next.pid} runs the writes after ` +
            `${takeover} ms; 16 writes acknowledged ${Date.now() - since} ms after the kill ` +
            `(${back} ms after the takeover was seen)`,
        )
      },
      observed: () => ({
        actual: { killed: isGone(killed), takenOver: takeover <= TAKEOVER_MS },
        expected: { killed: true, takenOver: true },
      }),
      lostHandoffs: 1,
    })
  })

  it('the writer stopped with SIGSTOP for 10 s', { timeout: 180_000 }, async ({ annotate }) => {
    const cluster = await threeWorkers()
    // What the processes said, when it fails: a fault's story is in their lines.
    onTestFailed(() => console.log(`stderr of the workers:\n${cluster.stderr().slice(-6000)}`))
    let stopped = 0
    let takeover = Infinity
    let resumed: Health | undefined
    await underLoad(annotate, {
      front: cluster.url,
      urls: [cluster.url],
      // A request handed to the sleeping worker is answered when it wakes: its client waits.
      requestTimeoutMs: STALL_MS + RECOVERY_MS,
      fault: async () => {
        stopped = (await findWriter(cluster.url)).pid
        const since = Date.now()
        process.kill(stopped, 'SIGSTOP')
        try {
          const next = await findWriter(cluster.url, stopped)
          takeover = Date.now() - since
          await annotate(
            `the writer (pid ${stopped}) stopped: pid ${next.pid} runs the writes after ${takeover} ms`,
          )
          await pause(Math.max(0, STALL_MS - (Date.now() - since)))
        } finally {
          process.kill(stopped, 'SIGCONT')
        }
        // Once awake, the old writer knows it no longer is one.
        for (let i = 0; i < 200 && resumed?.pid !== stopped; i++) {
          const h = await health(cluster.url)
          if (h.pid === stopped && h.writer === false) resumed = h
          else await pause(20)
        }
      },
      observed: () => ({
        actual: { takenOver: takeover <= TAKEOVER_MS, resumedAsFollower: resumed?.writer },
        expected: { takenOver: true, resumedAsFollower: false },
      }),
    })
  })

  it('PostgreSQL restarted', { timeout: 120_000 }, async ({ annotate }) => {
    const cluster = await threeWorkers()
    await underLoad(annotate, {
      front: cluster.url,
      urls: [cluster.url],
      fault: () => pg.restart({ downMs: FAULT_MS }),
    })
  })

  it('Redis stopped and started again, empty', { timeout: 120_000 }, async ({ annotate }) => {
    const cluster = await threeWorkers()
    await underLoad(annotate, {
      front: cluster.url,
      urls: [cluster.url],
      fault: async () => {
        await redis.kill()
        await pause(FAULT_MS)
      },
      heal: () => redis.restart(),
    })
  })

  it('one of three processes cut from PostgreSQL', { timeout: 120_000 }, async ({ annotate }) => {
    const database = await pg.freshDatabase()
    const cutter = await startTcpProxy([pg.port])
    const ready = { ready: 'through Redis at' }
    // The first loads the data into PostgreSQL; the others start from there.
    const a = await startCli(serveArgs(database), ready)
    const [b, cut] = await Promise.all([
      startCli(serveArgs(database), ready),
      startCli(serveArgs(cutter.via(database)), ready),
    ])
    const urls = [a.url, b.url, cut.url]
    const front = await startTcpProxy(urls.map((u) => Number(new URL(u).port)))
    let refused: Answer | undefined
    let refusedAfter = 0
    let cutHealth = 0
    let writesToCut: string[] = []
    try {
      await underLoad(annotate, {
        front: `http://127.0.0.1:${front.port}`,
        urls,
        fault: async (load) => {
          cutter.cut()
          const since = Date.now()
          // The cut process cannot know what it misses: it stops answering reads, and says so.
          for (;;) {
            refused = await send(cut.url, { target: '/rest/Item(1)' })
            refusedAfter = Date.now() - since
            if (refused.status !== 200 || refusedAfter >= REFUSAL_MS) break
            await pause(20)
          }
          cutHealth = (await health(cut.url)).status
          await annotate(
            `the cut process answered a read ${refused.status} after ${refusedAfter} ms, /health ${cutHealth}`,
          )
          // The others write on.
          const ms = await load.acknowledgedMore(50, RECOVERY_MS)
          await annotate(`50 writes acknowledged through the others in ${ms} ms during the cut`)
          // Nor does it answer a write from its old state: an update of an entity it never saw
          // (a 404 would say there is none), of one it holds at an older stamp (a 409 would show
          // the older version).
          const update = '/rest/Item?$method=update'
          const probe = json(await send(a.url, postJson(update, { name: 'probe' })))
          load.ledger.sent.add('probe')
          const seed = json(await send(a.url, { target: '/rest/Item(1)' }))
          const renamed = json(
            await send(
              a.url,
              postJson(update, { __KEY: '1', __STAMP: seed.__STAMP, name: 'seed' }),
            ),
          )
          writesToCut = await Promise.all(
            [
              { __KEY: probe.__KEY, __STAMP: probe.__STAMP, name: 'probe+' },
              { __KEY: '1', __STAMP: renamed.__STAMP, name: 'seed' },
            ].map(async (body) => {
              const answer = await send(cut.url, postJson(update, body))
              return `${answer.status} ${answer.body.toString('utf8').slice(0, 150)}`
            }),
          )
          await annotate(`writes through the cut process: ${writesToCut.join('; ')}`)
        },
        heal: async () => cutter.heal(),
        observed: () => ({
          actual: {
            read: refused?.status,
            errCode: refused && JSON.parse(refused.body.toString('utf8')).__ERROR?.[0]?.errCode,
            retryAfter: Number(refused?.headers['retry-after']) > 0,
            health: cutHealth,
            inTime: refusedAfter < REFUSAL_MS,
            writes: writesToCut.map((w) => w.slice(0, 3)),
            writesAnswered: writesToCut,
          },
          expected: {
            read: 503,
            errCode: 9134,
            retryAfter: true,
            health: 503,
            inTime: true,
            writes: ['503', '503'],
            writesAnswered: writesToCut,
          },
        }),
      })
    } finally {
      await front.close()
      await cutter.close()
    }
  })
})
