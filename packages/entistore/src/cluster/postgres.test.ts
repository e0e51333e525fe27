/**
 * Several datastores on one real PostgreSQL (postgres-server.fixture.ts), in one test process,
 * each with its own pool and listener, served over HTTP as `entistore serve --postgres` serves
 * them: what one commits is seen through the others within a bounded time; a stale stamp through
 * another process is refused like a local one (409, status 2); concurrent read-modify-writes
 * through all of them lose no update; an atomic batch is whole or absent everywhere; a process
 * started later catches up from snapshot and log; a write PostgreSQL refuses, or whose connection
 * is cut mid-transaction, answers 503 and leaves nothing in memory; PostgreSQL restarted, the
 * processes reconnect. Each test has its own schema.
 */
import { createDatastore, type Datastore } from '@entistore/core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { serve, type RunningServer } from '../serve.js'
import { joinCluster, type Cluster, type ClusterOptions } from './join-cluster.js'
import { postgresSkip, startPostgres, type PostgresServer } from './postgres-server.fixture.js'

const MODEL = {
  __NAME: 'cluster',
  dataClasses: [
    {
      name: 'Account',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'owner', type: 'string' },
        { name: 'balance', type: 'number' },
      ],
    },
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', unique: true },
      ],
    },
  ],
}
const DATA = {
  Account: [1, 2, 3, 4].map((ID) => ({ ID, owner: `o${ID}`, balance: 100 })),
  Item: [{ ID: 1, name: 'seed' }],
}
const JSON_BODY = { 'content-type': 'application/json' }

let pg: PostgresServer
let url: string
let schemas = 0
let schema = ''
const open: { cluster: Cluster; server: RunningServer }[] = []

beforeAll(async () => {
  if (postgresSkip !== undefined) return
  pg = await startPostgres()
  url = await pg.freshDatabase()
}, 30_000)
afterAll(async () => {
  await pg?.stop()
})
afterEach(async () => {
  for (const n of open.splice(0)) {
    await n.server.close()
    await n.cluster.close()
  }
})

interface Node {
  readonly ds: Datastore
  readonly cluster: Cluster
  readonly url: string
}

/** A process: a datastore joined to this test's schema, served on a free port. */
async function node(options: Partial<ClusterOptions> = {}): Promise<Node> {
  const ds = createDatastore(MODEL)
  const cluster = await joinCluster(ds, {
    postgres: url,
    schema,
    data: DATA,
    pollMs: 200,
    onError: () => undefined,
    ...options,
  })
  const server = await serve(ds, { port: 0, wrapCore: (core) => cluster.wrap(core) })
  open.push({ cluster, server })
  return { ds, cluster, url: server.url }
}

async function get(n: Node, path: string): Promise<{ status: number; body: any }> {
  const reply = await fetch(`${n.url}/rest/${path}`)
  return { status: reply.status, body: await reply.json() }
}

async function post(n: Node, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const reply = await fetch(`${n.url}/rest/${path}`, {
    method: 'POST',
    headers: JSON_BODY,
    body: JSON.stringify(body),
  })
  return { status: reply.status, body: await reply.json() }
}

/** Waits until `check` holds, up to `ms`; returns how long it took. */
async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<number> {
  const start = Date.now()
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 5))
  }
  return Date.now() - start
}

const balance = (n: Node, id: number) =>
  n.ds.dataClass('Account').get(id)?.get('balance') as number | undefined

describe.skipIf(postgresSkip !== undefined)('datastores on one PostgreSQL', () => {
  beforeEach(() => {
    schema = `s${++schemas}`
  })

  it('loads the data on the first start only; a later process starts from PostgreSQL', async () => {
    const a = await node()
    expect(a.cluster.recovery).toMatchObject({ fresh: true, snapshotEntities: 5 })
    await post(a, 'Item?$method=update', { name: 'one' })
    const b = await node({ data: { Item: [{ name: 'ignored' }] } })
    expect(b.cluster.recovery).toMatchObject({ fresh: false, snapshotEntities: 5, logRecords: 1 })
    expect(b.ds.dataClass('Item').query('name = :1', 'ignored').length).toBe(0)
    expect(b.ds.dataClass('Item').query('name = :1', 'one').length).toBe(1)
    await expect(joinCluster(a.ds, { postgres: url, schema })).rejects.toThrow(/must be empty/)
  })

  it('a write through one process is seen through the others within a bounded time', async () => {
    const [a, b, c] = [await node(), await node(), await node()]
    const lags: number[] = []
    for (let i = 0; i < 20; i++) {
      const reply = await post(a, 'Account?$method=update', { __KEY: 1, balance: 1000 + i })
      expect(reply.status).toBe(200)
      lags.push(await until(() => balance(b, 1) === 1000 + i && balance(c, 1) === 1000 + i, 2000))
    }
    expect(Math.max(...lags)).toBeLessThan(2000)
    expect(b.cluster.lag().count).toBeGreaterThan(0)
    expect(b.cluster.appliedSeq).toBe(a.cluster.appliedSeq)
  })

  it('a stale stamp sent through another process is refused with status 2, as a local one', async () => {
    const [a, b] = [await node(), await node()]
    const stamp = (await get(b, 'Account(2)')).body.__STAMP as number
    expect(
      (await post(a, 'Account?$method=update', { __KEY: 2, __STAMP: stamp, balance: 7 })).status,
    ).toBe(200)
    // At once: B catches up inside PostgreSQL's transaction before it checks the stamp.
    const stale = await post(b, 'Account?$method=update', { __KEY: 2, __STAMP: stamp, balance: 8 })
    expect(stale.status).toBe(409)
    expect(stale.body.__STATUS?.status ?? stale.body.__ENTITIES?.[0]?.__STATUS?.status).toBe(2)
    expect(balance(b, 2)).toBe(7)
    await until(() => balance(a, 2) === 7)
  })

  it('concurrent read-modify-writes through three processes lose no update', async () => {
    const nodes = [await node(), await node(), await node()]
    // Transfers between the four accounts, each with the stamps read, retried on 409.
    const transfer = async (n: Node, from: number, to: number) => {
      for (;;) {
        const [f, t] = [
          (await get(n, `Account(${from})`)).body,
          (await get(n, `Account(${to})`)).body,
        ]
        const reply = await post(n, 'Account?$method=update&$atomic=true', [
          { __KEY: from, __STAMP: f.__STAMP, balance: f.balance - 1 },
          { __KEY: to, __STAMP: t.__STAMP, balance: t.balance + 1 },
        ])
        if (reply.status === 200) return
        expect(reply.status).toBe(409)
      }
    }
    const clients = Array.from({ length: 6 }, async (_, c) => {
      for (let i = 0; i < 15; i++)
        await transfer(nodes[c % 3]!, ((c + i) % 4) + 1, ((c + i + 1) % 4) + 1)
    })
    // And increments of one account from every process.
    let increments = 0
    const counters = nodes.map(async (n) => {
      for (let i = 0; i < 10; i++)
        for (;;) {
          const e = (await get(n, 'Item(1)')).body
          const reply = await post(n, 'Item?$method=update', {
            __KEY: 1,
            __STAMP: e.__STAMP,
            name: `seed${e.__STAMP}`,
          })
          if (reply.status === 200) {
            increments++
            break
          }
        }
    })
    await Promise.all([...clients, ...counters])
    for (const n of nodes) await n.cluster.catchUp()
    for (const n of nodes) {
      const sum = [1, 2, 3, 4].reduce((s, id) => s + balance(n, id)!, 0)
      expect(sum).toBe(400)
      expect(n.ds.dataClass('Item').get(1)!.stamp).toBe(1 + increments)
    }
    expect(nodes.map((n) => [1, 2, 3, 4].map((id) => balance(n, id)))).toEqual(
      Array(3).fill([1, 2, 3, 4].map((id) => balance(nodes[0]!, id))),
    )
  }, 60_000)

  it('an atomic batch is whole or absent in every process', async () => {
    const [a, b] = [await node(), await node()]
    const refused = await post(a, 'Item?$method=update&$atomic=true', [
      { name: 'x1' },
      { name: 'seed' },
    ])
    expect(refused.status).not.toBe(200)
    const done = await post(a, 'Item?$method=update&$atomic=true', [{ name: 'y1' }, { name: 'y2' }])
    expect(done.status).toBe(200)
    await b.cluster.catchUp()
    const names = (n: Node) =>
      n.ds
        .dataClass('Item')
        .all()
        .toArray()
        .map((e) => e.get('name'))
    expect(names(b)).toEqual(['seed', 'y1', 'y2'])
    expect(names(a)).toEqual(names(b))
  })

  it('a process started later catches up from the snapshot and the log after it', async () => {
    const a = await node({ snapshotEvery: 5 })
    for (let i = 0; i < 23; i++) await post(a, 'Item?$method=update', { name: `n${i}` })
    await until(
      async () =>
        (
          await pg.query(
            `SELECT count(DISTINCT seq) AS n FROM ${schema}.entistore_snapshot`,
            url.split('/').pop(),
          )
        ).rows[0].n >= 2,
    )
    const b = await node({ snapshotEvery: 5 })
    expect(b.cluster.recovery.fresh).toBe(false)
    expect(b.cluster.recovery.snapshotSeq).toBeGreaterThan(0)
    expect(b.ds.dataClass('Item').length).toBe(24)
    expect(b.cluster.appliedSeq).toBe(a.cluster.appliedSeq)
    // The log before the previous snapshot is gone.
    const { rows } = await pg.query(
      `SELECT min(seq) AS m FROM ${schema}.entistore_log`,
      url.split('/').pop(),
    )
    expect(Number(rows[0].m)).toBeGreaterThan(1)
    // The next create takes the next key in both.
    await post(b, 'Item?$method=update', { name: 'after' })
    await until(() => a.ds.dataClass('Item').length === 25)
    expect(a.ds.dataClass('Item').query('name = after').toArray()[0]?.key).toBe(25)
  })

  it('a write PostgreSQL refuses answers 503 and leaves nothing in memory', async () => {
    const [a, b] = [await node(), await node()]
    const db = url.split('/').pop()
    await pg.query(
      `CREATE FUNCTION ${schema}.refuse() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN IF NEW.record LIKE '%refused%' THEN RAISE EXCEPTION 'no'; END IF; RETURN NEW; END $$;
       CREATE TRIGGER refuse BEFORE INSERT ON ${schema}.entistore_log FOR EACH ROW EXECUTE FUNCTION ${schema}.refuse()`,
      db,
    )
    const before = a.ds.globalStamp
    const reply = await post(a, 'Item?$method=update', { name: 'refused' })
    expect(reply.status).toBe(503)
    expect(reply.body.__ERROR[0].errCode).toBe(9132)
    expect(a.ds.dataClass('Item').query('name = refused').length).toBe(0)
    expect(a.ds.globalStamp).toBe(before)
    // The next create gets the key the refused one had: the sequence was put back.
    expect((await post(a, 'Item?$method=update', { name: 'accepted' })).body.ID).toBe(2)
    await until(() => b.ds.dataClass('Item').length === 2)
    expect(b.ds.dataClass('Item').query('name = refused').length).toBe(0)
  })

  it('a connection cut in the middle of the transaction answers 503, and the next write goes through', async () => {
    const [a, b] = [await node(), await node()]
    const db = url.split('/').pop()
    await pg.query(
      `CREATE FUNCTION ${schema}.cut() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN IF NEW.record LIKE '%cut%' THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF; RETURN NEW; END $$;
       CREATE TRIGGER cut BEFORE INSERT ON ${schema}.entistore_log FOR EACH ROW EXECUTE FUNCTION ${schema}.cut()`,
      db,
    )
    const reply = await post(a, 'Account?$method=update', { __KEY: 3, owner: 'cut', balance: 0 })
    expect(reply.status).toBe(503)
    expect(balance(a, 3)).toBe(100)
    expect((await post(a, 'Account?$method=update', { __KEY: 3, balance: 5 })).status).toBe(200)
    await until(() => balance(b, 3) === 5)
    expect(a.ds.dataClass('Account').get(3)!.get('owner')).toBe('o3')
  })

  it('commits made outside a write (code calling the datastore) reach the others', async () => {
    const [a, b] = [await node(), await node()]
    a.ds.dataClass('Item').create({ name: 'direct' })
    await until(() => b.ds.dataClass('Item').query('name = direct').length === 1)
    await a.cluster.write(() => a.ds.dataClass('Account').update(4, { balance: 1 }))
    await until(() => balance(b, 4) === 1)
    expect(a.cluster.pendingCommits).toBe(0)
  })

  it('reconnects after PostgreSQL restarts', async () => {
    const [a, b] = [await node(), await node()]
    await pg.restart({ downMs: 300 })
    // The pools' connections died with the server: a write may fail once, then goes through.
    await until(
      async () =>
        (await post(a, 'Account?$method=update', { __KEY: 1, balance: 55 })).status === 200,
      10_000,
    )
    await until(() => balance(b, 1) === 55, 10_000)
    expect((await post(b, 'Account?$method=update', { __KEY: 1, balance: 56 })).status).toBe(200)
    await until(() => balance(a, 1) === 56, 5000)
  }, 30_000)
})
