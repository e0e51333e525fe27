/**
 * Several datastores on one real PostgreSQL (../postgres-server.fixture.ts), in one test process,
 * each with its own pool and listener, served over HTTP as `entistore serve --postgres` serves
 * them: what one commits is seen through the others within a bounded time; a stale stamp through
 * another process is refused like a local one (409, status 2); concurrent read-modify-writes
 * through all of them lose no update; an atomic batch is whole or absent everywhere; a process
 * started later catches up from snapshot and log; a write PostgreSQL refuses, or whose connection
 * is cut mid-transaction, answers 503 and leaves nothing in memory (and holds no lock); one whose
 * COMMIT's reply is lost, or whose text never reaches PostgreSQL, converges to what PostgreSQL
 * holds; PostgreSQL restarted, the processes reconnect. Record text, written into the SQL as
 * literals, comes back as it was; a catch-up longer than one read applies everything in order.
 * Each test has its own schema.
 */
import { connect, createServer, type Socket } from 'node:net'
import { createDatastore, type Datastore } from '@entistore/core'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ClusterWrites } from '../cluster-core.js'
import { ClusterNodes, type ClusterNode } from '../cluster-nodes.fixture.js'
import { joinCluster, type ClusterOptions } from '../join-cluster.js'
import { PostgresLog } from './postgres-log.js'
import { PostgresParticipant } from './postgres-participant.js'
import { ACCOUNTS as MODEL } from '../accounts.fixture.js'
import { postgresPerFile, postgresSkip } from '../postgres-server.fixture.js'

const DATA = {
  Account: [1, 2, 3, 4].map((ID) => ({ ID, owner: `o${ID}`, balance: 100 })),
  Item: [{ ID: 1, name: 'seed' }],
}
const JSON_BODY = { 'content-type': 'application/json' }

const pgFile = postgresPerFile()
let schemas = 0
let schema = ''
const nodes = new ClusterNodes()
afterEach(() => nodes.closeAll())

type Node = ClusterNode

/** The Items' names in a process, in key order. */
const names = (n: { readonly ds: Datastore }) =>
  n.ds
    .dataClass('Item')
    .all()
    .toArray()
    .map((e) => e.get('name'))

/** A process: a datastore joined to this test's schema, served on a free port. */
function node(options: Partial<ClusterOptions> = {}): Promise<Node> {
  return nodes.start(MODEL, { postgres: pgFile.url, schema, data: DATA, ...options })
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

/** Runs `sql` on this test's database. */
const sql = (text: string) => pgFile.server.query(text, pgFile.database)

/**
 * A TCP proxy in front of PostgreSQL that, once armed, cuts the connection carrying the next
 * simple-protocol text holding COMMIT: either before PostgreSQL gets it (`request`), or once
 * PostgreSQL has answered it in full, the answer kept from the client (`reply`: the COMMIT done,
 * its reply lost). Paused, it holds every byte both ways, as a network partition does (nothing
 * refused, nothing answered), until resumed.
 */
async function cuttingProxy(port: number) {
  let armed: 'request' | 'reply' | undefined
  let cuts = 0
  const sockets = new Set<Socket>()
  let held: (() => void)[] | undefined
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1')
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('error', () => undefined)
      s.on('close', () => {
        sockets.delete(s)
        client.destroy()
        upstream.destroy()
      })
    }
    let swallow = false
    let tail = Buffer.alloc(0)
    const cut = () => {
      cuts++
      client.destroy()
      upstream.destroy()
    }
    client.on('data', (chunk: Buffer) => {
      if (held) return void held.push(() => upstream.write(chunk))
      // 'Q': a simple query message.
      if (armed && chunk[0] === 0x51 && chunk.includes('COMMIT')) {
        const mode = armed
        armed = undefined
        if (mode === 'request') return cut()
        swallow = true
      }
      upstream.write(chunk)
    })
    upstream.on('data', (chunk: Buffer) => {
      if (held) return void held.push(() => client.write(chunk))
      if (!swallow) return void client.write(chunk)
      // The answer ends with ReadyForQuery: 'Z', length 5, the transaction status.
      tail = Buffer.concat([tail, chunk]).subarray(-6)
      if (tail.length === 6 && tail[0] === 0x5a && tail.readInt32BE(1) === 5) cut()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port: own } = server.address() as { port: number }
  return {
    url: pgFile.url.replace(`:${port}/`, `:${own}/`),
    arm: (mode: 'request' | 'reply') => (armed = mode),
    pause: () => void (held ??= []),
    resume: () => {
      const bytes = held ?? []
      held = undefined
      for (const send of bytes) send()
    },
    get cuts() {
      return cuts
    },
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
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
    await expect(joinCluster(a.ds, { postgres: pgFile.url, schema })).rejects.toThrow(
      /must be empty/,
    )
  })

  it('a write through one process is seen through every other as soon as it is answered', async () => {
    const [a, b, c] = [await node(), await node(), await node()]
    for (let i = 0; i < 20; i++) {
      const writer = [a, b, c][i % 3]!
      const reply = await post(writer, 'Account?$method=update', { __KEY: 1, balance: 1000 + i })
      expect(reply.status).toBe(200)
      // No waiting: the reply was sent once every process serving had applied the write.
      for (const n of [a, b, c]) {
        expect(balance(n, 1)).toBe(1000 + i)
        expect((await get(n, 'Account(1)')).body.balance).toBe(1000 + i)
      }
    }
    expect(b.cluster.lag().count).toBeGreaterThan(0)
    expect(b.cluster.appliedSeq).toBe(a.cluster.appliedSeq)
  })

  it('fences a process cut off from PostgreSQL: it stops answering reads, the writes through the others are answered, and it serves again once caught up', async () => {
    // The lease: long enough that a write that waits for no one stays well under it on a busy
    // machine (a write that waited for B takes at least the lease), and that the renewals of the
    // healthy process, every quarter of it, are never late enough to lose it. 300 ms left a
    // loaded machine a few of its own stalls of margin in each.
    const LEASE_MS = 1000
    const proxy = await cuttingProxy(pgFile.server.port)
    try {
      const a = await node({ maxLagMs: LEASE_MS })
      const b = await node({ postgres: proxy.url, maxLagMs: LEASE_MS })
      expect((await get(b, 'Account(3)')).body.balance).toBe(100)
      proxy.pause()
      const started = performance.now()
      const reply = await post(a, 'Account?$method=update', { __KEY: 3, balance: 33 })
      const waited = performance.now() - started
      expect(reply.status).toBe(200)
      // At least the bound (the acknowledgement waited for), then what was left of B's lease.
      expect(waited).toBeGreaterThanOrEqual(LEASE_MS)
      expect(balance(b, 3)).toBe(100)
      // B still holds the old balance, and says so rather than answer it.
      const refused = await get(b, 'Account(3)')
      expect([refused.status, refused.body.__ERROR[0].errCode]).toEqual([503, 9134])
      expect(b.cluster.unavailable()).toBeDefined()
      // The next writes through A do not wait for B any more.
      const next = performance.now()
      expect((await post(a, 'Account?$method=update', { __KEY: 4, balance: 44 })).status).toBe(200)
      expect(performance.now() - next).toBeLessThan(LEASE_MS)
      proxy.resume()
      await until(() => b.cluster.unavailable() === undefined, 10_000)
      expect((await get(b, 'Account(3)')).body.balance).toBe(33)
      expect((await get(b, 'Account(4)')).body.balance).toBe(44)
      // Back among those a write waits for: the next one is seen through B as soon as answered.
      expect((await post(a, 'Account?$method=update', { __KEY: 3, balance: 34 })).status).toBe(200)
      expect((await get(b, 'Account(3)')).body.balance).toBe(34)
    } finally {
      proxy.resume()
      await proxy.close()
    }
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
  })

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
    expect(names(b)).toEqual(['seed', 'y1', 'y2'])
    expect(names(a)).toEqual(names(b))
  })

  it('a process started later catches up from the snapshot and the log after it', async () => {
    const a = await node({ snapshotEvery: 5 })
    for (let i = 0; i < 23; i++) await post(a, 'Item?$method=update', { name: `n${i}` })
    await until(
      async () =>
        (
          await pgFile.server.query(
            `SELECT count(DISTINCT seq) AS n FROM ${schema}.entistore_snapshot`,
            pgFile.database,
          )
        ).rows[0].n >= 2,
    )
    const b = await node({ snapshotEvery: 5 })
    expect(b.cluster.recovery.fresh).toBe(false)
    expect(b.cluster.recovery.snapshotSeq).toBeGreaterThan(0)
    expect(b.ds.dataClass('Item').length).toBe(24)
    expect(b.cluster.appliedSeq).toBe(a.cluster.appliedSeq)
    // The log before the previous snapshot is gone.
    const { rows } = await pgFile.server.query(
      `SELECT min(seq) AS m FROM ${schema}.entistore_log`,
      pgFile.database,
    )
    expect(Number(rows[0].m)).toBeGreaterThan(1)
    // The next create takes the next key in both.
    await post(b, 'Item?$method=update', { name: 'after' })
    await until(() => a.ds.dataClass('Item').length === 25)
    expect(a.ds.dataClass('Item').query('name = after').toArray()[0]?.key).toBe(25)
  })

  it('a write PostgreSQL refuses answers 503 and leaves nothing in memory', async () => {
    const [a, b] = [await node(), await node()]
    const db = pgFile.database
    await pgFile.server.query(
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
    // Nothing in the log, no lock held, no transaction left open on a pooled connection.
    const left = await sql(
      `SELECT (SELECT count(*) FROM ${schema}.entistore_log WHERE record LIKE '%refused%') AS rows,
              (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory') AS locks,
              (SELECT count(*) FROM pg_stat_activity WHERE state LIKE 'idle in transaction%') AS open`,
    )
    expect(left.rows[0]).toEqual({ rows: '0', locks: '0', open: '0' })
    // The lock is free for another process at once.
    expect((await post(b, 'Account?$method=update', { __KEY: 2, balance: 9 })).status).toBe(200)
  })

  it('a connection cut in the middle of the transaction answers 503, and the next write goes through', async () => {
    const [a, b] = [await node(), await node()]
    const db = pgFile.database
    await pgFile.server.query(
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

  it('record text written into the SQL as literals comes back as it was', async () => {
    const origin = `o'ri\\gin; $1 "x"`
    const [a, b] = [await node({ origin }), await node()]
    const hostile = [
      "it's",
      "''",
      'back\\slash',
      "\\'; DROP TABLE entistore_log; --",
      '$1 $$ $tag$ :1 ?',
      "E'x' U&'\\0041'",
      'a;b;COMMIT;',
      '"quoted" \\u0041 \\n',
      'line\nbreak\ttab\r',
      'nul\u0000inside',
      'é 日本語 🎉 \u2028',
    ]
    for (const name of hostile)
      expect((await post(a, 'Item?$method=update', { name })).status).toBe(200)
    await until(() => names(b).length === hostile.length + 1)
    expect(names(b)).toEqual(['seed', ...hostile])
    expect(names(a)).toEqual(names(b))
    const c = await node()
    expect(names(c)).toEqual(names(a))
    const { rows } = await sql(
      `SELECT DISTINCT origin FROM ${schema}.entistore_log WHERE origin <> '${b.cluster.origin}'`,
    )
    expect(rows).toEqual([{ origin }])
  })

  it('a group appended in one round trip is refused, with nothing written, when the log moved on since', async () => {
    const a = await node()
    const log = new PostgresLog({ connection: pgFile.url, schema })
    try {
      expect((await post(a, 'Item?$method=update', { name: 'first' })).status).toBe(200)
      const head = a.cluster.appliedSeq
      const record = (name: string) => ({
        format: 1 as const,
        kind: 'write' as const,
        changes: [
          {
            op: 'insert' as const,
            dataClass: 'Item',
            key: 99,
            stamp: 1,
            timestamp: 0,
            values: { ID: 99, name },
          },
        ],
        globalStamp: 1,
        sequences: {},
      })
      // Behind by one row: that row comes back, to catch up with before trying again.
      const stale = await log.appendIfAt(head - 1, [record('stale')])
      expect(stale).toMatchObject({ moved: { rows: [{ seq: head }] } })
      const written = await log.appendIfAt(head, [record('fresh')])
      expect(written).toMatchObject({ first: head + 1, last: head + 1 })
      const again = await log.appendIfAt(head, [record('again')])
      expect(again).toMatchObject({ moved: { rows: [{ seq: head + 1 }] } })
      const { rows } = await sql(`SELECT record FROM ${schema}.entistore_log WHERE seq > ${head}`)
      expect(
        rows.map((r: { record: string }) => JSON.parse(r.record).changes[0].values.name),
      ).toEqual(['fresh'])
      // The lock is not left behind by a refused one.
      expect((await post(a, 'Item?$method=update', { name: 'after' })).status).toBe(200)
    } finally {
      await log.close()
    }
  })

  it('a catch-up longer than one read applies every row, in order', async () => {
    const a = await node({ catchUpRows: 3 })
    // A second process that loads, then follows the log only once ten rows were written: it
    // catches up from the log when it starts following, 4 reads of at most 3 for 10 rows.
    const log = new PostgresLog({ connection: pgFile.url, schema, catchUpRows: 3 })
    const ds = createDatastore(MODEL)
    const { applied, snapshotSeq } = await log.load(ds)
    const participant = new PostgresParticipant(log, ds, applied, snapshotSeq, {
      onError: (e) => {
        throw e
      },
    })
    const writes = new ClusterWrites(ds, [participant])
    try {
      for (let i = 0; i < 5; i++) {
        await post(a, 'Account?$method=update', { __KEY: 1, balance: i })
        await post(a, 'Item?$method=update', { name: `n${i}` })
      }
      const reads = vi.spyOn(log, 'after')
      await participant.follow(writes)
      expect(participant.applied).toBe(a.cluster.appliedSeq)
      expect(reads).toHaveBeenCalledTimes(4)
      await writes.write(() => ds.dataClass('Item').create({ name: 'last' }))
      // Read-your-writes: the write resolved once the other process had applied it too.
      expect(a.cluster.appliedSeq).toBe(participant.applied)
      expect(a.ds.dataClass('Item').length).toBe(7)
      const state = (d: Datastore) => ({
        items: d
          .dataClass('Item')
          .all()
          .toArray()
          .map((e) => [e.key, e.get('name'), e.stamp]),
        account: [
          d.dataClass('Account').get(1)!.get('balance'),
          d.dataClass('Account').get(1)!.stamp,
        ],
        globalStamp: d.globalStamp,
      })
      expect(state(ds)).toEqual(state(a.ds))
      expect(state(ds).account).toEqual([4, 6])
      expect(state(ds).items.at(-1)).toEqual([7, 'last', 1])
    } finally {
      await writes.close()
      await participant.close()
      await log.close()
    }
  })

  it('a process joining again answers no read before it caught up with the head it joined at, even when a catch-up ends while the join is on its way', async () => {
    const a = await node()
    const log = new PostgresLog({ connection: pgFile.url, schema })
    const ds = createDatastore(MODEL)
    const { applied, snapshotSeq } = await log.load(ds)
    // Its clock and its renewals are the test's: a renewal runs when the test calls it.
    let now = 0
    const renewals: (() => void)[] = []
    const listeners = vi.spyOn(log, 'listenerClient')
    const participant = new PostgresParticipant(log, ds, applied, snapshotSeq, {
      onError: () => undefined,
      pollMs: 60_000,
      leaseMs: 1000,
      now: () => now,
      schedule: (fn) => {
        renewals.push(fn)
        return () => undefined
      },
    })
    const writes = new ClusterWrites(ds, [participant])
    const held = <T>() => {
      let release!: (value: T) => void
      const promise = new Promise<T>((r) => (release = r))
      return { promise, release }
    }
    const gate = held<void>()
    try {
      await participant.follow(writes)
      expect(participant.unavailable()).toBeUndefined()
      // Deaf to the log's notifications from now on (as while cut off): it applies the others'
      // rows only when it catches up.
      listeners.mock.results[0]!.value.removeAllListeners('notification')
      // Its lease ran out by PostgreSQL's clock and by its own: the others no longer wait for it.
      await sql(
        `UPDATE ${log.membersTable} SET expires_at = clock_timestamp() - interval '1 second' WHERE origin = '${log.origin}'`,
      )
      now = 5000
      expect(participant.unavailable()).toMatch(/lease/)
      expect((await post(a, 'Item?$method=update', { name: 'missed' })).status).toBe(200)
      // The renewal fails: it joins again, and its join is held on its way to PostgreSQL.
      const join = log.join.bind(log)
      const joinHeld = held<void>()
      const joining = vi.spyOn(log, 'join').mockImplementation(async (...args) => {
        await joinHeld.promise
        return join(...args)
      })
      renewals.at(-1)!()
      await until(() => joining.mock.calls.length === 1)
      // A catch-up that ends meanwhile (a poll, a reconnected listener) knows nothing of the
      // head the join will read.
      await participant.catchUp()
      // The catch-up after the join waits for the gate.
      void writes.exclusive(() => gate.promise)
      joinHeld.release()
      await until(() => !/lease/.test(participant.unavailable() ?? ''))
      expect(participant.unavailable()).toBe('it is catching up with the shared log')
      expect(writes.readError()?.errCode).toBe(9134)
      gate.release()
      await until(() => participant.unavailable() === undefined)
      expect(names({ ds })).toEqual(['seed', 'missed'])
    } finally {
      gate.release()
      await writes.close()
      await participant.close()
      await log.close()
    }
  })

  it("a process's own notifications start no catch-up: a write costs no read after it", async () => {
    const a = await node({ pollMs: 60_000 })
    await a.cluster.catchUp()
    const reads = vi.spyOn(PostgresLog.prototype, 'after')
    try {
      for (let i = 0; i < 20; i++)
        expect((await post(a, 'Account?$method=update', { __KEY: 1, balance: i })).status).toBe(200)
      await new Promise((r) => setTimeout(r, 100))
      expect(reads).not.toHaveBeenCalled()
    } finally {
      reads.mockRestore()
    }
  })

  it('a write whose COMMIT reply is lost answers 503, then shows what PostgreSQL committed, once', async () => {
    const proxy = await cuttingProxy(pgFile.server.port)
    try {
      const [a, b] = [await node({ postgres: proxy.url }), await node()]
      const stamp = a.ds.dataClass('Account').get(1)!.stamp
      proxy.arm('reply')
      const reply = await post(a, 'Account?$method=update', { __KEY: 1, balance: 777 })
      expect(proxy.cuts).toBe(1)
      expect(reply.status).toBe(503)
      expect(reply.body.__ERROR[0].errCode).toBe(9132)
      // PostgreSQL committed it: every process applies it, from the log, exactly once.
      await until(() => balance(b, 1) === 777 && balance(a, 1) === 777)
      await a.cluster.catchUp()
      for (const n of [a, b]) expect(n.ds.dataClass('Account').get(1)!.stamp).toBe(stamp + 1)
      expect(a.cluster.appliedSeq).toBe(b.cluster.appliedSeq)
      // The value as the record writes it: a bare 777 may be part of a stamp or a time.
      const { rows } = await sql(
        `SELECT count(*) AS n FROM ${schema}.entistore_log WHERE record LIKE '%"balance":777%'`,
      )
      expect(rows[0].n).toBe('1')
      // The destroyed connection took the lock with it: the next writes go through.
      expect((await post(a, 'Account?$method=update', { __KEY: 1, balance: 778 })).status).toBe(200)
      expect((await post(b, 'Account?$method=update', { __KEY: 1, balance: 779 })).status).toBe(200)
      await until(() => balance(a, 1) === 779)
      expect(a.ds.dataClass('Account').get(1)!.stamp).toBe(stamp + 3)
    } finally {
      await proxy.close()
    }
  })

  it('a write whose INSERT and COMMIT never reach PostgreSQL answers 503 and is nowhere', async () => {
    const proxy = await cuttingProxy(pgFile.server.port)
    try {
      const [a, b] = [await node({ postgres: proxy.url }), await node()]
      proxy.arm('request')
      const reply = await post(a, 'Account?$method=update', { __KEY: 2, balance: 555 })
      expect(proxy.cuts).toBe(1)
      expect(reply.status).toBe(503)
      expect(balance(a, 2)).toBe(100)
      // The backend went with its connection, its transaction and lock with it.
      expect((await post(b, 'Account?$method=update', { __KEY: 2, balance: 556 })).status).toBe(200)
      await until(() => balance(a, 2) === 556)
      await a.cluster.catchUp()
      // As above (where the same pattern finds the write that was logged).
      const { rows } = await sql(
        `SELECT count(*) AS n FROM ${schema}.entistore_log WHERE record LIKE '%"balance":555%'`,
      )
      expect(rows[0].n).toBe('0')
      for (const n of [a, b]) expect(n.ds.dataClass('Account').get(2)!.stamp).toBe(2)
    } finally {
      await proxy.close()
    }
  })

  it("a write another participant refuses before it runs lets PostgreSQL's transaction and lock go", async () => {
    let refuse = true
    const flaky = {
      name: 'flaky',
      beforeWrite: async () => {
        if (refuse) {
          refuse = false
          throw new Error('flaky is down')
        }
      },
      close: async () => undefined,
    }
    const [a, b] = [await node({ participants: [flaky] }), await node()]
    expect((await post(a, 'Account?$method=update', { __KEY: 4, balance: 1 })).status).toBe(503)
    const left = await sql(
      `SELECT (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory') AS locks,
              (SELECT count(*) FROM pg_stat_activity WHERE state LIKE 'idle in transaction%') AS open`,
    )
    expect(left.rows[0]).toEqual({ locks: '0', open: '0' })
    expect((await post(b, 'Account?$method=update', { __KEY: 4, balance: 2 })).status).toBe(200)
    expect((await post(a, 'Account?$method=update', { __KEY: 4, balance: 3 })).status).toBe(200)
    await until(() => balance(b, 4) === 3)
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
    await pgFile.server.restart({ downMs: 300 })
    // The pools' connections died with the server: a write may fail once, then goes through.
    await until(
      async () =>
        (await post(a, 'Account?$method=update', { __KEY: 1, balance: 55 })).status === 200,
      10_000,
    )
    await until(() => balance(b, 1) === 55, 10_000)
    expect((await post(b, 'Account?$method=update', { __KEY: 1, balance: 56 })).status).toBe(200)
    await until(() => balance(a, 1) === 56, 5000)
  })
})
