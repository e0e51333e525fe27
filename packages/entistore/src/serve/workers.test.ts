/**
 * `entistore serve --workers N`: the primary's supervision with fake workers and fake timers
 * (start-up lines, restarts and their backoff, giving up, stopping), the CLI's refusals and
 * wiring in-process, and one real run in child processes on a throwaway PostgreSQL.
 */
import { writeFileSync } from 'node:fs'
import { Agent, get } from 'node:http'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Schedule } from './chaos.js'
import { main } from '../cli.js'
import {
  postgresSkip,
  startPostgres,
  type PostgresServer,
} from '../cluster/postgres-server.fixture.js'
import { shopFiles, startCli, stopChildren } from '../persist/cli-process.fixture.js'
import type { HealthReply } from './serve.js'
import {
  superviseWorkers,
  type ForkWorker,
  type PrimaryMessage,
  type SuperviseOptions,
  type WorkerEvents,
} from './workers.js'

interface FakeWorker {
  readonly id: number
  readonly pid: number
  readonly events: WorkerEvents
  stops: number
  kills: number
  /** What the primary sent it. */
  readonly sent: PrimaryMessage[]
  stop(): void
  kill(): void
  send(message: PrimaryMessage): void
}

/** Fake workers, fake timers, and what the primary printed. */
function primary(options: Partial<SuperviseOptions> = {}) {
  const forked: FakeWorker[] = []
  const fork: ForkWorker = (events) => {
    const id = forked.length + 1
    const worker: FakeWorker = {
      id,
      pid: 1000 + id,
      events,
      stops: 0,
      kills: 0,
      sent: [],
      stop: () => void worker.stops++,
      kill: () => void worker.kills++,
      send: (message) => void worker.sent.push(message),
    }
    forked.push(worker)
    return worker
  }
  const timers = new Set<{ fn: () => void; ms: number }>()
  const schedule: Schedule = (fn, ms) => {
    const timer = { fn, ms }
    timers.add(timer)
    return () => timers.delete(timer)
  }
  let time = 0
  const lines: string[] = []
  let stop!: () => void
  const exitCode = superviseWorkers({
    count: 2,
    fork,
    out: (l) => lines.push(l),
    err: (l) => lines.push(`err: ${l}`),
    stopSignal: new Promise<void>((resolve) => (stop = resolve)),
    stopTimeoutMs: 3000,
    schedule,
    now: () => time,
    ...options,
  })
  return {
    forked,
    lines,
    exitCode,
    stop,
    /** The delays of the timers pending. */
    pending: () => [...timers].map((t) => t.ms),
    /** Lets `ms` pass: runs the timers due (all of them are set from now). */
    pass(ms: number) {
      time += ms
      for (const t of [...timers].filter((t) => t.ms <= ms)) {
        timers.delete(t)
        t.fn()
      }
    },
    line: (w: FakeWorker, line: string, stream: 'out' | 'err' = 'out') =>
      w.events.message({ entistore: 'line', stream, line }),
    ready: (w: FakeWorker) =>
      w.events.message({ entistore: 'ready', url: 'http://127.0.0.1:8080' }),
  }
}

/** Both workers started, saying what a serving process says. */
function running(options: Partial<SuperviseOptions> = {}) {
  const p = primary(options)
  for (const w of p.forked) {
    p.line(w, 'Entistore serving shop (Item 2) at http://127.0.0.1:8080/rest/$catalog')
    p.ready(w)
  }
  p.lines.length = 0
  return p
}

describe('the primary of --workers', () => {
  it('prints one start-up, then a line for the workers, then what each says with its number', () => {
    const p = primary()
    const [one, two] = p.forked as [FakeWorker, FakeWorker]
    p.line(two, 'Entistore serving shop (Item 2) at http://127.0.0.1:8080/rest/$catalog')
    p.line(one, 'Loading data.json: 1,000 of 2,000 rows', 'err')
    p.line(one, 'Entistore serving shop (Item 2) at http://127.0.0.1:8080/rest/$catalog')
    p.ready(one)
    p.ready(two)
    p.line(two, 'entistore: while stopping: boom', 'err')
    expect(p.lines).toEqual([
      'err: Loading data.json: 1,000 of 2,000 rows',
      'Entistore serving shop (Item 2) at http://127.0.0.1:8080/rest/$catalog',
      `Workers: 2 processes share port 8080 (pids 1001, 1002; primary ${process.pid}); ` +
        'one that exits is started again, SIGTERM stops them all',
      'err: [worker 2] entistore: while stopping: boom',
    ])
  })

  it('starts a worker that exits again, with a delay that doubles with each recent exit', () => {
    const p = running()
    const [one, two] = p.forked as [FakeWorker, FakeWorker]
    one.events.exit(null, 'SIGKILL')
    expect(p.lines).toEqual([
      'err: entistore: worker 1 (pid 1001) exited with signal SIGKILL; starting another in 100 ms',
    ])
    expect(p.forked).toHaveLength(2)
    p.pass(100)
    const three = p.forked[2]!
    p.line(three, 'Entistore serving shop (Item 2) at http://127.0.0.1:8080/rest/$catalog')
    p.ready(three)
    expect(p.lines.slice(1)).toEqual(['Worker 3 (pid 1003) serves, in place of worker 1'])
    two.events.exit(1, null)
    expect(p.pending()).toEqual([200])
    // Out of the window, an exit no longer counts.
    p.pass(200)
    p.pass(60_000)
    three.events.exit(1, null)
    expect(p.pending()).toEqual([100])
  })

  // nbSessions and nbGuestSessions count the sessions of every worker (issue 78).
  it('tells each worker the sessions the others hold; those of one that exits go with it', () => {
    const p = running()
    const [one, two] = p.forked as [FakeWorker, FakeWorker]
    one.events.message({ entistore: 'sessions', sessions: 3, users: 1 })
    expect([one.sent, two.sent]).toEqual([[], [{ entistore: 'sessions', sessions: 3, users: 1 }]])
    two.events.message({ entistore: 'sessions', sessions: 2, users: 0 })
    expect(one.sent).toEqual([{ entistore: 'sessions', sessions: 2, users: 0 }])
    one.events.exit(1, null)
    expect(two.sent.at(-1)).toEqual({ entistore: 'sessions', sessions: 0, users: 0 })
    // The one started in its place hears of the others' once it serves.
    p.pass(100)
    const three = p.forked[2]!
    p.ready(three)
    expect(three.sent).toEqual([{ entistore: 'sessions', sessions: 2, users: 0 }])
  })

  it('gives up past maxExits in the window: stops the others, exit code 1', async () => {
    const p = running({ restart: { maxExits: 2 } })
    for (let i = 0; i < 2; i++) {
      p.forked.at(-1)!.events.exit(1, null)
      p.pass(1000)
      p.ready(p.forked.at(-1)!)
    }
    const survivor = p.forked[0]!
    p.forked.at(-1)!.events.exit(1, null)
    expect(p.lines.at(-1)).toBe(
      'err: entistore: worker 4 (pid 1004) exited with code 1: 3 exits within 60 s, stopping',
    )
    expect(p.pending()).toEqual([3000]) // the kill deadline, no restart
    expect(survivor.stops).toBe(1)
    survivor.events.exit(0, null)
    expect(await p.exitCode).toBe(1)
  })

  it('stops the start when a worker cannot start, printing why, with its exit code', async () => {
    const p = primary()
    const [one, two] = p.forked as [FakeWorker, FakeWorker]
    p.line(two, 'entistore: model.json: not found', 'err')
    two.events.exit(1, null)
    expect(p.lines).toEqual([
      'err: entistore: model.json: not found',
      'err: entistore: worker 2 (pid 1002) exited with code 1 before listening',
    ])
    expect(one.stops).toBe(1)
    // Stopped while still loading, before it listened to SIGTERM: no harm done.
    one.events.exit(null, 'SIGTERM')
    expect(await p.exitCode).toBe(1)
  })

  it('on the stop signal, stops every worker and exits 0 when they all stopped cleanly', async () => {
    const p = running()
    p.forked[0]!.events.exit(1, null) // a restart pending: cancelled by the stop
    p.stop()
    await Promise.resolve()
    expect(p.forked.map((w) => w.stops)).toEqual([0, 1])
    expect(p.pending()).toEqual([3000])
    p.forked[1]!.events.exit(0, null)
    expect(await p.exitCode).toBe(0)
    expect(p.forked).toHaveLength(2)
  })

  it('kills the workers still running after stopTimeoutMs, and exits 1', async () => {
    const p = running()
    p.stop()
    await Promise.resolve()
    p.forked[0]!.events.exit(0, null)
    p.pass(3000)
    expect(p.forked.map((w) => w.kills)).toEqual([0, 1])
    expect(p.lines).toEqual([
      'err: entistore: 1 worker(s) still running 3000 ms after SIGTERM: killed',
    ])
    p.forked[1]!.events.exit(null, 'SIGKILL')
    expect(await p.exitCode).toBe(1)
  })
})

const { folder, model, data } = shopFiles('workers', ['pen', 'ink'])

/** main() in-process: its exit code and lines. */
async function run(argv: string[], io: Partial<Parameters<typeof main>[1]> = {}) {
  const out: string[] = []
  const err: string[] = []
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l), ...io })
  return { code, out, err }
}

describe('entistore serve --workers', () => {
  it.each([
    [
      ['--workers', '2'],
      '--workers 2 needs --postgres <url>: every worker holds its own datastore',
    ],
    [['--workers', 'auto'], '--workers auto needs --postgres <url>'],
    [
      ['--workers', '3', '--postgres', 'postgres://db', '--persist', 'store'],
      '--postgres goes with neither --persist nor --watch',
    ],
    [['--workers', '2', '--postgres', 'postgres://db', '--watch'], 'neither --persist nor --watch'],
    [['--workers', '2', '--postgres', 'postgres://db', '--save', 'x.json'], 'and --save cannot'],
    [
      ['--workers', '0'],
      '--workers must be a number of processes from 1 to 1024, or auto, got "0"',
    ],
    [['--shutdown-timeout', 'soon'], '--shutdown-timeout must be milliseconds'],
    [['--shutdown-delay', '1.5'], '--shutdown-delay must be milliseconds'],
  ])('refuses %j with exit code 2', async (args, message) => {
    const { code, err } = await run(['serve', '-m', model, ...args])
    expect(code).toBe(2)
    expect(err[0]).toContain(message)
  })

  it('explains why N workers need --postgres, and sessions --redis', async () => {
    const { err } = await run(['serve', '-m', model, '--workers', '2'])
    expect(err[0]).toBe(
      'entistore: --workers 2 needs --postgres <url>: every worker holds its own datastore in ' +
        'memory, so without one they share, each would serve its own copy, and a write through ' +
        'one would not be seen through the others (sessions, locks and entity sets are shared ' +
        'with --redis). Run one process, or give --postgres',
    )
  })

  it('makes the process a primary that forks and loads nothing itself', async () => {
    const forked: WorkerEvents[] = []
    let stop!: () => void
    let forkedTwo!: () => void
    const twoForked = new Promise<void>((resolve) => (forkedTwo = resolve))
    const done = run(
      [
        'serve',
        '-m',
        join(folder, 'missing.json'),
        '--workers',
        '2',
        '--postgres',
        'postgres://db',
      ],
      {
        stopSignal: new Promise((resolve) => (stop = resolve)),
        forkWorker: (events) => {
          forked.push(events)
          if (forked.length === 2) forkedTwo()
          return { id: forked.length, pid: 1, stop: () => events.exit(0, null), kill: () => {} }
        },
      },
    )
    // Told by the forks themselves, however long the command takes to get there.
    await twoForked
    stop()
    const { code, err } = await done
    expect(code).toBe(0)
    expect(err).toEqual([
      'entistore: without --redis, each worker keeps its own sessions, locks and entity sets: ' +
        'a client whose next request reaches another worker is not known there',
    ])
  })

  it('--workers 1 is one process, as without it', async () => {
    let stop!: () => void
    const done = run(['serve', '-m', model, '--workers', '1', '--port', '0'], {
      stopSignal: new Promise((resolve) => (stop = resolve)),
      onListening: () => stop(),
      forkWorker: () => expect.fail('no worker for --workers 1'),
    })
    expect((await done).code).toBe(0)
  })
})

/**
 * GETs `paths` on one new connection (round-robin hands connections, not requests, to the
 * workers: the replies come from one worker, a new one each call).
 */
async function onOneConnection(url: string, ...paths: string[]): Promise<string[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  try {
    const bodies: string[] = []
    for (const path of paths)
      bodies.push(
        await new Promise<string>((resolve, reject) => {
          get(`${url}${path}`, { agent }, (res) => {
            let body = ''
            res.setEncoding('utf8').on('data', (d: string) => (body += d))
            res.on('end', () => resolve(body))
          }).on('error', reject)
        }),
      )
    return bodies
  } finally {
    agent.destroy()
  }
}

describe.skipIf(postgresSkip !== undefined)(
  'entistore serve --workers 2 --postgres, for real',
  () => {
    let pg: PostgresServer | undefined
    afterAll(async () => {
      stopChildren()
      await pg?.stop()
    })
    /** `serve --workers 2` on a fresh database, with `args` besides, once both workers serve. */
    const startWorkers = async (...args: string[]) => {
      pg ??= await startPostgres()
      const db = await pg.freshDatabase()
      return startCli(
        ['serve', '-m', model, '--port', '0', '--workers', '2', '--postgres', db, ...args],
        { ready: 'Workers: 2 processes share port' },
      )
    }

    it(
      'shares one port and the data between two workers, restarts a killed one, stops on SIGTERM',
      { timeout: 90_000 },
      async () => {
        // The worker's number and pid in /health.
        const cli = await startWorkers('--health-details')
        expect(cli.stdout().match(/Entistore serving/g)).toHaveLength(1)
        const write = await fetch(`${cli.url}/rest/Item?$method=update`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'cap' }),
        })
        expect(write.status).toBe(200)
        // Each worker, reached on a connection of its own, has the write (within the log's lag).
        const seen = new Map<number, number>() // worker id → pid
        const t0 = Date.now()
        while (seen.size < 2) {
          expect(Date.now() - t0).toBeLessThan(10_000)
          const [h, i] = await onOneConnection(cli.url, '/health', '/rest/Item?$attributes=name')
          const health = JSON.parse(h!) as HealthReply
          const items = JSON.parse(i!) as { __ENTITIES: { name: string }[] }
          expect(health.workers).toBe(2)
          if (items.__ENTITIES.some((e) => e.name === 'cap'))
            seen.set(health.worker as number, health.pid!)
        }
        process.kill(seen.get(1)!, 'SIGKILL')
        await cli.printed('Worker 3 (pid')
        expect(cli.stderr()).toContain('worker 1 (pid')
        expect(JSON.parse((await onOneConnection(cli.url, '/health'))[0]!)).toMatchObject({
          status: 'ok',
        })
        cli.child.kill('SIGTERM')
        expect(await cli.exited).toEqual({ code: 0, signal: null })
        expect(() => process.kill(seen.get(2)!, 0)).toThrow()
      },
    )

    it(
      'counts a quota across the workers: two workers let through far fewer than twice it',
      { timeout: 90_000 },
      async () => {
        const quotas = join(folder, 'quotas.json')
        writeFileSync(quotas, JSON.stringify({ nbRequestsPerHour: 4 }))
        const cli = await startWorkers('--quotas', quotas)
        const hour = new Date().getUTCHours()
        // A new connection each request: round-robin hands them to the two workers in turn.
        const statuses: number[] = []
        for (let i = 0; i < 12; i++) {
          const [body] = await onOneConnection(cli.url, '/rest/$catalog')
          statuses.push(body!.includes('"errCode":9065') ? 429 : 200)
        }
        cli.child.kill('SIGTERM')
        expect(await cli.exited).toEqual({ code: 0, signal: null })
        // Counted apart, each worker would let 4 through (8); an hour that ended meanwhile
        // started the counts again.
        if (new Date().getUTCHours() === hour)
          expect(statuses.filter((s) => s === 200).length).toBeLessThan(8)
        expect(statuses.at(-1)).toBe(429)
      },
    )

    // Issue 78: each worker counted its own sessions, and a reader by key none.
    it(
      'counts the guests of both workers for nbGuestSessions, readers by key included',
      { timeout: 90_000 },
      async () => {
        const quotas = join(folder, 'guests.json')
        writeFileSync(quotas, JSON.stringify({ nbGuestSessions: 2 }))
        const cli = await startWorkers('--quotas', quotas, '--health-details')
        const write = await fetch(`${cli.url}/rest/Item?$method=update`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'cap' }),
        })
        const { ID } = (await write.json()) as { ID: number }
        /** A client on a connection of its own (one worker), with its cookie jar. */
        const client = () => {
          const agent = new Agent({ keepAlive: true, maxSockets: 1 })
          let cookie: string | undefined
          const send = (path: string) =>
            new Promise<{ status: number; body: string }>((resolve, reject) => {
              const headers = cookie === undefined ? {} : { cookie }
              get(`${cli.url}${path}`, { agent, headers }, (res) => {
                cookie = res.headers['set-cookie']?.[0]?.split(';')[0] ?? cookie
                let body = ''
                res.setEncoding('utf8').on('data', (d: string) => (body += d))
                res.on('end', () => resolve({ status: res.statusCode!, body }))
              }).on('error', reject)
            })
          const worker = async () =>
            (JSON.parse((await send('/health')).body) as HealthReply).worker
          return { send, worker, close: () => agent.destroy() }
        }
        /** A client whose connection reached worker `id` (a new connection goes to the next). */
        const on = async (id: number | undefined) => {
          for (;;) {
            const c = client()
            if (id === undefined || (await c.worker()) === id) return c
            c.close()
          }
        }
        // Two guests reading by key, one on each worker.
        const a = await on(undefined)
        const first = await a.worker()
        const b = await on(first === 1 ? 2 : 1)
        const item = `/rest/Item(${ID})`
        for (const c of [a, b]) {
          expect((await c.send(item)).status).toBe(200)
          expect((await c.send(item)).status).toBe(200)
        }
        // Once each heard of the other's (a message through the primary), a third guest is
        // refused on either worker.
        await new Promise((resolve) => setTimeout(resolve, 300))
        for (const id of [1, 2]) {
          const third = await on(id)
          const r = await third.send(item)
          expect([id, r.status, r.body.includes('nbGuestSessions')]).toEqual([id, 429, true])
          third.close()
        }
        expect([(await a.send(item)).status, (await b.send(item)).status]).toEqual([200, 200])
        a.close()
        b.close()
        cli.child.kill('SIGTERM')
        expect(await cli.exited).toEqual({ code: 0, signal: null })
      },
    )
  },
)
