/**
 * One writer, the others forward, on a real PostgreSQL: three datastores in this test process,
 * each joined with `oneWriter` and served over HTTP. Exactly one writes; a write sent to any of
 * them lands once, and is read back through every one right after its reply; a stale stamp sent
 * through a follower is refused as the writer refuses it; the writer gone (closed, or its
 * connection to PostgreSQL killed as kill -9 would), another takes over and no acknowledged
 * write is lost. Failover here runs on real time (PostgreSQL's lock is let go when a connection
 * ends): the tests wait for a state, never assert a duration.
 */
import { globalStampFunctions } from '@entistore/core'
import { afterEach, describe, expect, it } from 'vitest'
import { ACCOUNTS as MODEL } from '../accounts.fixture.js'
import { ClusterNodes, type ClusterNode } from '../cluster-nodes.fixture.js'
import type { ClusterOptions } from '../join-cluster.js'
import { postgresPerFile, postgresSkip } from '../postgres-server.fixture.js'

const DATA = { Account: [1, 2, 3].map((ID) => ({ ID, owner: `o${ID}`, balance: 100 })) }

const pgFile = postgresPerFile()
const nodes = new ClusterNodes()
afterEach(() => nodes.closeAll())
let schemas = 0
let schema = ''
/** What the processes reported (nothing waits on it): shown when a state never comes. */
const reported: string[] = []

/** The log's origins, in order. */
const loggedOrigins = async () =>
  (
    await pgFile.server.query(
      `SELECT origin FROM "${schema}"."entistore_log" ORDER BY seq`,
      pgFile.database,
    )
  ).rows.map((r: { origin: string }) => r.origin)

/** Three processes of one datastore (a schema of their own), beating every 100 ms. */
async function three(extra: Partial<ClusterOptions> = {}): Promise<ClusterNode[]> {
  schema = `ow${++schemas}`
  const options: ClusterOptions = {
    postgres: pgFile.url,
    schema,
    data: DATA,
    oneWriter: { beatMs: 100, staleMs: 400, failoverMs: 5000 },
    onError: (e) => void reported.push(e.message),
    ...extra,
  }
  const out: ClusterNode[] = []
  for (let i = 0; i < 3; i++) out.push(await nodes.start(MODEL, options))
  return out
}

const writerOf = (ns: readonly ClusterNode[]) => ns.filter((n) => n.cluster.writer === true)

async function until<T>(what: () => T | undefined, label: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = what()
    if (v !== undefined) return v
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`never: ${label}; reported: ${reported.slice(-10).join(' | ')}`)
}

async function send(n: ClusterNode, method: string, path: string, body?: unknown) {
  const reply = await fetch(`${n.url}/rest/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: reply.status, headers: reply.headers, body: (await reply.json()) as any }
}

describe.skipIf(postgresSkip !== undefined)('one writer, the others forward', () => {
  it('one process writes; a write through any lands once and is read back through all', async () => {
    const ns = await three()
    expect(writerOf(ns)).toHaveLength(1)
    const [writer] = writerOf(ns)
    for (const [i, n] of ns.entries()) {
      const made = await send(n, 'POST', 'Account?$method=update', { owner: `new${i}`, balance: i })
      expect(made.status).toBe(200)
      const key = made.body.__KEY as string
      // Right after the reply, through every process, on a fresh request each.
      for (const m of ns)
        expect((await send(m, 'GET', `Account(${key})`)).body).toMatchObject({
          owner: `new${i}`,
          __STAMP: 1,
        })
    }
    // Only the writer appended: every log row is its own.
    const origins = await loggedOrigins()
    expect(origins).toHaveLength(3)
    expect(new Set(origins)).toEqual(new Set([writer!.cluster.origin]))
    expect(ns.map((n) => n.ds.dataClass('Account').length)).toEqual([6, 6, 6])
  })

  it('a stale stamp sent through a follower is refused as the writer refuses it', async () => {
    const ns = await three()
    const follower = ns.find((n) => n.cluster.writer !== true)!
    const first = await send(follower, 'POST', 'Account?$method=update', {
      __KEY: '1',
      __STAMP: 1,
      balance: 150,
    })
    expect([first.status, first.body.balance, first.body.__STAMP]).toEqual([200, 150, 2])
    const stale = await send(follower, 'POST', 'Account?$method=update', {
      __KEY: '1',
      __STAMP: 1,
      balance: 999,
    })
    expect(stale.status).toBe(409)
    expect(stale.body.__STATUS).toMatchObject({ status: 2 })
    for (const n of ns) expect(n.ds.dataClass('Account').get(1)!.get('balance')).toBe(150)
  })

  it('the writer closed: another takes over, and the writes go on, none lost', async () => {
    const ns = await three()
    const [writer] = writerOf(ns)
    const rest = ns.filter((n) => n !== writer)
    await send(rest[0]!, 'POST', 'Account?$method=update', { __KEY: '2', balance: 1 })
    await nodes.close(writer!)
    const next = await until(() => writerOf(rest)[0], 'a new writer')
    const made = await send(rest[1]!, 'POST', 'Account?$method=update', { owner: 'after' })
    expect(made.status).toBe(200)
    for (const n of rest) {
      expect(n.ds.dataClass('Account').get(2)!.get('balance')).toBe(1)
      expect((await send(n, 'GET', `Account(${made.body.__KEY})`)).body.owner).toBe('after')
    }
    expect(writerOf(rest)).toEqual([next])
  })

  it("the writer's lease connection killed: a writer is back under a new term, writes go on, one copy each", async () => {
    const ns = await three()
    expect(writerOf(ns)).toHaveLength(1)
    await pgFile.server.query(
      `SELECT pg_terminate_backend(backend) FROM "${schema}"."entistore_writer"`,
      pgFile.database,
    )
    // Whoever looks first takes the lock: another process, or the same one on a new connection.
    const term = async () =>
      Number(
        (
          await pgFile.server.query(
            `SELECT term FROM "${schema}"."entistore_writer"`,
            pgFile.database,
          )
        ).rows[0].term,
      )
    for (let i = 0; i < 400 && ((await term()) < 2 || writerOf(ns).length !== 1); i++)
      await new Promise((r) => setTimeout(r, 25))
    expect(await term()).toBe(2)
    expect(writerOf(ns)).toHaveLength(1)
    // A write through each process, the old writer included: each lands once.
    for (const n of ns) {
      const made = await send(n, 'POST', 'Account?$method=update', { owner: `after ${n.url}` })
      expect(made.status).toBe(200)
      for (const m of ns)
        expect((await send(m, 'GET', `Account(${made.body.__KEY})`)).body.owner).toBe(
          `after ${n.url}`,
        )
    }
    const origins = await loggedOrigins()
    expect(origins).toHaveLength(3)
    expect(new Set(origins)).toEqual(new Set([writerOf(ns)[0]!.cluster.origin]))
  })
})

// Issue 50: 4D's change tracking across processes. Followers apply the writer's records as
// replays, which keep the stamps the writer gave; setGlobalStamp over REST (the project exposes
// it) is a datastore function call, a write forwarded as any other.
const TRACKED = {
  dataClasses: [
    {
      ...MODEL.dataClasses[0]!,
      attributes: [
        ...MODEL.dataClasses[0]!.attributes,
        { name: '__GlobalStamp', type: 'long64', indexed: true },
      ],
    },
  ],
}
/** The stamp's functions, which a project exposes to read and set the stamp over REST. */
const STAMP = { functions: { dataStore: { ...globalStampFunctions } } }

describe.skipIf(postgresSkip !== undefined)('change tracking across processes', () => {
  /** What a sync client reads through `n`: the global stamp, the stamps, the deleted rows. */
  const synced = async (n: ClusterNode) => ({
    globalStamp: (await send(n, 'GET', '$catalog/getGlobalStamp')).body.result as number,
    accounts: (
      await send(n, 'GET', 'Account?$attributes=owner,__GlobalStamp&$orderby=ID')
    ).body.__ENTITIES.map((e: any) => [e.__KEY, e.owner, e.__GlobalStamp]),
    deleted: (await send(n, 'GET', '__DeletedRecords?$orderby=ID')).body.__ENTITIES.map(
      (e: any) => [e.ID, e.__Stamp, e.__TableName, e.__PrimaryKey],
    ),
  })

  it('gives each write the same stamps through every process, and setGlobalStamp through a follower takes effect everywhere', async () => {
    schema = `ow${++schemas}`
    const options: ClusterOptions = {
      postgres: pgFile.url,
      schema,
      data: DATA,
      oneWriter: { beatMs: 100, staleMs: 400, failoverMs: 5000 },
      onError: (e) => void reported.push(e.message),
      // The process that joins last starts from a snapshot of the tracked rows.
      snapshotEvery: 5,
    }
    const ns = [
      await nodes.start(TRACKED, options, STAMP),
      await nodes.start(TRACKED, options, STAMP),
    ]
    const follower = ns.find((n) => n.cluster.writer !== true)!
    const post = async (n: ClusterNode, path: string, body?: unknown) => {
      const reply = await send(n, 'POST', path, body)
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      return reply.body
    }
    await post(follower, 'Account?$method=update', { owner: 'new' }) // 1
    await post(follower, 'Account?$method=update', { __KEY: '1', owner: 'one' }) // 2
    await post(follower, 'Account(2)?$method=delete') // 3, its row 4
    const want = {
      globalStamp: 4,
      accounts: [
        ['1', 'one', 2],
        ['3', 'o3', 0],
        ['4', 'new', 1],
      ],
      deleted: [[1, 3, 'Account', '2']],
    }
    for (const n of ns) expect(await synced(n)).toEqual(want)
    // Set through the follower, forwarded to the writer: every process holds it at the reply.
    expect(await post(follower, '$catalog/setGlobalStamp', [1000])).toEqual({ result: null })
    for (const n of ns) expect(n.ds.getGlobalStamp()).toBe(1000)
    await post(ns[0]!, 'Account(3)?$method=delete') // 1001, its row 1002
    await post(ns[1]!, 'Account?$method=update', { __KEY: '4', owner: 'four' }) // 1003
    // A process that joins now reads the same from the snapshot of record 5 and the log after it.
    const snapshots = async () =>
      Number(
        (
          await pgFile.server.query(
            `SELECT count(DISTINCT seq) AS n FROM "${schema}"."entistore_snapshot"`,
            pgFile.database,
          )
        ).rows[0].n,
      )
    for (let i = 0; i < 400 && (await snapshots()) < 2; i++)
      await new Promise((r) => setTimeout(r, 25))
    ns.push(await nodes.start(TRACKED, options, STAMP))
    expect(ns[2]!.cluster.recovery.snapshotSeq).toBe(5)
    const after = await synced(ns[0]!)
    expect(after).toEqual({
      globalStamp: 1003,
      accounts: [
        ['1', 'one', 2],
        ['4', 'four', 1003],
      ],
      deleted: [...want.deleted, [2, 1001, 'Account', '3']],
    })
    for (const n of ns.slice(1)) expect(await synced(n)).toEqual(after)
  })
})
