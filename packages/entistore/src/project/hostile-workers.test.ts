/**
 * Issue 78's "nothing waits" on many processes: `entistore serve --project --workers 2
 * --postgres` with a guest's endless 4D calls on both workers, each client on a connection of its
 * own (round-robin hands them to the workers in turn), beside a process that burns a CPU: every
 * read by key is answered before any endless call ends, on both workers; a worker killed in the
 * middle of its endless calls costs only its own clients, its replacement serves the same data,
 * and after all of it the server is up and right. Order of replies, never a wall-clock bound.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { Agent, request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgresPerFile, postgresSkip } from '../cluster/postgres-server.fixture.js'
import { startCli, stopChildren, type CliProcess } from '../persist/cli-process.fixture.js'
import { HOSTILE, projectCopy } from './four-d-rest.fixture.js'

interface Reply {
  readonly status: number
  readonly body: string
}

describe.skipIf(postgresSkip !== undefined)('4D code on --workers 2: nothing waits', () => {
  const pg = postgresPerFile()
  const project = projectCopy(HOSTILE, {})
  let cli: CliProcess
  let hog: ChildProcess | undefined

  /** One request on a connection of its own (the next worker), closed after the reply. */
  const send = (path: string, body?: unknown): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const agent = new Agent({ keepAlive: false })
      const req = request(
        `${cli.url}${path}`,
        {
          agent,
          method: body === undefined ? 'GET' : 'POST',
          headers: { 'content-type': 'application/json', connection: 'close' },
        },
        (res) => {
          let text = ''
          res.setEncoding('utf8').on('data', (d: string) => (text += d))
          res.on('end', () => {
            agent.destroy()
            resolve({ status: res.statusCode!, body: text })
          })
          res.on('error', reject)
        },
      )
      req.on('error', reject)
      req.end(body === undefined ? undefined : JSON.stringify(body))
    })
  /**
   * A read as a client of a cluster makes it: a process that cannot vouch for every acknowledged
   * write yet answers 503 (9134, `Retry-After: 1`), which it sends again (docs/durability.md).
   * After a worker is killed the other was seen fenced for a moment while the new one joined.
   */
  const read = async (path: string, body?: unknown): Promise<Reply> => {
    for (let tries = 0; ; tries++) {
      const r = await send(path, body)
      if (r.status !== 503 || tries === 150) return r
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const health = async (): Promise<{ worker: number; pid: number }> =>
    JSON.parse((await send('/health')).body) as { worker: number; pid: number }
  /** The pid of each worker (by its number), asked until both have answered. */
  const workers = async (): Promise<Map<number, number>> => {
    const seen = new Map<number, number>()
    for (let i = 0; seen.size < 2 && i < 50; i++) {
      const h = await health()
      seen.set(h.worker, h.pid)
    }
    return seen
  }

  beforeAll(async () => {
    cli = await startCli(
      [
        'serve',
        '--project',
        project,
        '--port',
        '0',
        '--workers',
        '2',
        '--postgres',
        pg.url,
        '--health-details',
        '--no-explorer',
      ],
      { ready: 'Workers: 2 processes share port' },
    )
    expect((await send('/rest/$catalog/seed', [50])).status).toBe(200)
  }, 120_000)
  afterAll(() => {
    hog?.kill('SIGKILL')
    stopChildren()
  })

  it('answers every read by key on both workers before any endless call ends', async () => {
    // A process that burns a CPU meanwhile: the workers share the machine with it (the next test
    // goes without, so that the other test files running beside this one are not slowed longer).
    hog = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })
    const order: string[] = []
    // Four endless calls, two a worker (each on a new connection: round-robin).
    const endless = Array.from({ length: 4 }, () =>
      send('/rest/$catalog/spin', []).then((r) => {
        order.push('spin')
        return r
      }),
    )
    // Asked once the calls run: a worker that ran them in one piece would answer after them.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const answeredBy = new Set<number>()
    for (let i = 1; i <= 6; i++) {
      // Three new connections a pass, one after the other: round-robin hands the two workers
      // both /health and the read by key in turn.
      answeredBy.add((await health()).worker).add((await health()).worker)
      const one = await send(`/rest/Employee(${i})`)
      order.push('key')
      expect(JSON.parse(one.body)).toMatchObject({ ID: i, lastname: `Last${i}` })
    }
    const spun = await Promise.all(endless)
    expect(answeredBy).toEqual(new Set([1, 2]))
    expect(order.slice(0, 6)).toEqual(Array(6).fill('key'))
    hog.kill('SIGKILL')
    for (const r of spun) expect(JSON.parse(r.body).__ERROR[0].errCode).toBe(9410)
  }, 60_000)

  it('a worker killed in the middle of its endless calls costs only its own clients', async () => {
    const before = await workers()
    expect(before.size).toBe(2)
    const endless = Array.from({ length: 4 }, () =>
      send('/rest/$catalog/spin', []).then(
        (r) => ({ ok: true as const, r }),
        (e: unknown) => ({ ok: false as const, e }),
      ),
    )
    await new Promise((resolve) => setTimeout(resolve, 300))
    process.kill(before.get(1)!, 'SIGKILL')
    // Once the primary has seen it gone (a connection handed to it before then would wait), the
    // other worker answers, its own endless calls still running; a third starts in its place.
    while (!cli.stderr().includes('worker 1 (pid'))
      await new Promise((resolve) => setTimeout(resolve, 20))
    const one = await read('/rest/Employee(7)')
    expect(JSON.parse(one.body)).toMatchObject({ ID: 7, lastname: 'Last7' })
    await cli.printed('Worker 3 (pid')
    const ended = await Promise.all(endless)
    // The killed worker's clients lose their connection; the other's get 9410.
    expect(ended.filter((x) => !x.ok).length).toBeGreaterThan(0)
    for (const x of ended) if (x.ok) expect(JSON.parse(x.r.body).__ERROR[0].errCode).toBe(9410)
    const after = await workers()
    expect([...after.values()]).not.toContain(before.get(1))
    // Up and right on both: the same data, a legitimate long call's right result.
    for (let i = 0; i < 4; i++) {
      const r = await read(`/rest/Employee(${9 + i})`)
      expect(JSON.parse(r.body)).toMatchObject({ ID: 9 + i, lastname: `Last${9 + i}` })
    }
    const counted = JSON.parse((await read('/rest/$catalog/count', [100])).body) as {
      result: number
    }
    expect(counted.result).toBe(297)
  }, 150_000)
})
