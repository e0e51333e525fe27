/**
 * Issue 30: the PostgreSQL cluster's snapshots, on a real PostgreSQL (../postgres-server.fixture.ts).
 * A snapshot is written from a view of the store opened at its log seq, a slice at a time between
 * requests, each slice's parts inserted as they are made: while one of 200,000 rows is written, a
 * few parts a turn of the event loop, a fresh GET waits a few turns (counted, not timed: rest's
 * slices/counted-turns.fixture.ts); the writes made meanwhile (through this process and another one,
 * which this one applies as they come) are in the log after it, and a new process recovers them
 * all; the snapshot holds the store as it was at its seq, no more; a snapshot of many parts is read
 * back a page at a time into the same store, and a damaged one leaves the new store empty; a
 * process that stops gives up the snapshot it was writing.
 */
import {
  applyLogRecords,
  createDatastore,
  dumpData,
  type DataFile,
  type Datastore,
  type LogRecord,
} from '@entistore/core'
import type { Turns } from '@entistore/rest'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  TURNS_WAITED,
  watchResponsiveness,
} from '../../../../rest/src/node/responsiveness.fixture.js'
import { countedTurns, turnBound } from '../../../../rest/src/slices/counted-turns.fixture.js'
import { ClusterNodes, type ClusterNode } from '../cluster-nodes.fixture.js'
import { joinCluster, type ClusterOptions } from '../join-cluster.js'
import { postgresPerFile, postgresSkip } from '../postgres-server.fixture.js'

const MODEL = {
  __NAME: 'pg-snapshot',
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'code', type: 'string' },
        { name: 'name', type: 'string' },
        { name: 'city', type: 'string' },
        { name: 'age', type: 'long' },
        { name: 'salary', type: 'number' },
        { name: 'note', type: 'string' },
      ],
    },
  ],
}
const CITIES = ['Paris', 'Lyon', 'Nantes', 'Lille', 'Brest']
// Rows of about 480 bytes of JSON: the snapshot made in one piece held a GET 1.2 s for 200,000 of
// them (its 200 parts in one turn); written in slices, 80 ms (5 parts a turn).
const NOTE = 'a note long enough to make a row as long as a long row of the scale bench: '.repeat(5)
const items = (n: number) => ({
  Item: Array.from({ length: n }, (_, i) => ({
    ID: i + 1,
    code: `C${String(i).padStart(7, '0')}`,
    name: `name ${i}`,
    city: CITIES[i % CITIES.length],
    age: 20 + (i % 50),
    salary: 1000 + i / 4,
    note: `${NOTE} ${i}`,
  })),
})

const pgFile = postgresPerFile()
let schemas = 0
let schema = ''
const nodes = new ClusterNodes()
beforeEach(() => {
  schema = `snap${++schemas}`
})
afterEach(() => nodes.closeAll())

type Node = ClusterNode

/**
 * A process: a datastore joined to this test's schema, served on a free port (its snapshot's
 * slices and its replies sharing `turns`, when given).
 */
function node(data: DataFile, options: Partial<ClusterOptions> = {}, turns?: Turns): Promise<Node> {
  const shared = turns === undefined ? {} : { turns }
  return nodes.start(
    MODEL,
    { postgres: pgFile.url, schema, data, ...options, ...shared },
    undefined,
    shared,
  )
}

const sql = (text: string) => pgFile.server.query(text, pgFile.database)

/** The parts of the snapshot at `seq`, parsed, in order. */
async function parts(seq: number): Promise<LogRecord[]> {
  const { rows } = await sql(
    `SELECT record FROM ${schema}.entistore_snapshot WHERE seq = ${seq} ORDER BY part`,
  )
  return rows.map((r: { record: string }) => JSON.parse(r.record) as LogRecord)
}

async function snapshotSeqs(): Promise<number[]> {
  const { rows } = await sql(`SELECT DISTINCT seq FROM ${schema}.entistore_snapshot ORDER BY seq`)
  return rows.map((r: { seq: string }) => Number(r.seq))
}

/** A store holding `records` alone, as dumpData gives it (rows with their stamps, sequences). */
function holding(records: Iterable<LogRecord>) {
  const ds = createDatastore(MODEL)
  applyLogRecords(ds, records)
  return state(ds)
}

const state = (ds: Datastore) => ({ data: dumpData(ds), globalStamp: ds.globalStamp })

async function post(n: Node, body: unknown): Promise<number> {
  const reply = await fetch(`${n.url}/rest/Item?$method=update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  await reply.arrayBuffer()
  return reply.status
}

describe.skipIf(postgresSkip !== undefined)('snapshots in PostgreSQL', () => {
  it(
    'a snapshot of 200,000 rows is written a few parts a turn, while a fresh GET waits a few turns',
    { timeout: 120_000 },
    async () => {
      const counted = countedTurns()
      const a = await node(items(200_000), {}, counted.turns)
      expect(a.cluster.recovery).toMatchObject({ fresh: true, snapshotEntities: 200_000 })
      await post(a, { __KEY: 7, name: 'renamed' })
      counted.take()
      const watch = watchResponsiveness(`${a.url}/rest/Item(12345)`, { counted })
      expect(await a.cluster.snapshot()).toBe(true)
      const seen = await watch.stop()
      const turns = counted.take()
      expect(seen.failed).toBe(0)
      expect(seen.probes).toBeGreaterThan(0)
      expect(seen.turnsWaited).toBeLessThanOrEqual(TURNS_WAITED)
      // Parts of 1,000 rows, each made in one piece: 5 a slice, a slice a turn (40 turns; all
      // 200 parts in one turn when a slice takes everything in one go, while a GET still waited
      // only 3 turns: the turns waited alone would not show it). A reply may share the turn.
      expect(turns.length).toBeGreaterThan(20)
      expect(Math.max(...turns)).toBeLessThanOrEqual(turnBound(2))
      expect(await snapshotSeqs()).toEqual([0, 1])
      const { rows } = await sql(
        `SELECT count(*) AS n FROM ${schema}.entistore_snapshot WHERE seq = 1`,
      )
      // Parts of 1,000 rows (the default).
      expect(Number(rows[0].n)).toBe(200)
    },
  )

  it('holds the store as it was at its seq, while writes through this process and another go on between its slices; a new process recovers every one', async () => {
    // A part of 2 rows a slice (sliceMs 0): about 500 round trips, with writes between them.
    const a = await node(items(1000), { rowsPerRecord: 2, sliceMs: 0 })
    const b = await node(items(1000))
    for (let i = 1; i <= 5; i++) expect(await post(b, { __KEY: i, name: `before ${i}` })).toBe(200)
    let done = false
    const written = a.cluster.snapshot().then((wrote) => ((done = true), wrote))
    // Updates and drops of rows the snapshot has not read yet, and creates, through A and B in
    // turn; B's are applied by A as they come, during the snapshot too.
    let writes = 0
    for (let i = 1000; !done && i > 500; i--, writes++) {
      const through = i % 2 ? a : b
      expect(await post(through, { __KEY: i, salary: -i })).toBe(200)
      expect(await post(through, { name: `during ${i}` })).toBe(200)
      const drop = await fetch(`${through.url}/rest/Item(${i - 500})?$method=delete`, {
        method: 'POST',
      })
      expect(drop.status).toBe(200)
    }
    expect(await written).toBe(true)
    expect(writes).toBeGreaterThan(5)
    // At the five writes acknowledged before it was asked for (every process had applied them).
    const seq = 5
    expect(await snapshotSeqs()).toEqual([0, seq])
    // The snapshot is the store at its seq: the first snapshot and the log up to it, applied.
    const { rows: log } = await sql(
      `SELECT record FROM ${schema}.entistore_log WHERE seq <= ${seq} ORDER BY seq`,
    )
    const upTo = log.map((r: { record: string }) => JSON.parse(r.record) as LogRecord)
    expect(holding(await parts(seq))).toEqual(holding([...(await parts(0)), ...upTo]))
    // Every write after it is in the log: a new process recovers them all.
    const c = await node(items(3))
    expect(c.cluster.recovery).toMatchObject({ fresh: false, snapshotSeq: seq })
    expect(c.cluster.recovery.logRecords).toBeGreaterThan(0)
    await a.cluster.catchUp()
    expect(c.cluster.appliedSeq).toBe(a.cluster.appliedSeq)
    expect(state(c.ds)).toEqual(state(a.ds))
    expect(c.ds.dataClass('Item').query('name = "during 1000"').length).toBe(1)
  })

  it('a snapshot of many parts is read back a page at a time into the same store', async () => {
    // A part a row: 1,000 parts, read back in pages (of 64).
    const a = await node(items(1000), { rowsPerRecord: 1 })
    for (let i = 1; i <= 20; i++) await post(a, { __KEY: i * 3, city: `moved ${i}` })
    await post(a, { name: 'new' })
    expect(await a.cluster.snapshot()).toBe(true)
    await post(a, { __KEY: 2, name: 'after the snapshot' })
    const b = await node(items(5), { rowsPerRecord: 1 })
    expect(b.cluster.recovery).toMatchObject({
      fresh: false,
      snapshotSeq: 21,
      snapshotEntities: 1001,
      logRecords: 1,
    })
    expect(state(b.ds)).toEqual(state(a.ds))
    // Compressed with lz4 where PostgreSQL has it (14 or later, built with it), not pglz.
    const { rows: lz4 } = await sql(
      `SELECT 'lz4' = ANY(enumvals) AS available FROM pg_settings
        WHERE name = 'default_toast_compression'`,
    )
    if (lz4[0]?.available) {
      const { rows } = await sql(
        `SELECT attcompression FROM pg_attribute
          WHERE attrelid = '${schema}.entistore_snapshot'::regclass AND attname = 'record'`,
      )
      expect(rows[0].attcompression).toBe('l')
    }
  })

  it('a snapshot missing a part, or holding one that is not JSON, fails the start and leaves the store empty', async () => {
    await node(items(500), { rowsPerRecord: 5 })
    await sql(`DELETE FROM ${schema}.entistore_snapshot WHERE seq = 0 AND part = 70`)
    const ds = createDatastore(MODEL)
    const start = () =>
      joinCluster(ds, { postgres: pgFile.url, schema, data: items(3), onError: () => undefined })
    await expect(start()).rejects.toThrow(/has no part 70 \(the next is 71\)/)
    expect(ds.dataClass('Item').length).toBe(0)
    await sql(
      `INSERT INTO ${schema}.entistore_snapshot (seq, part, record) VALUES (0, 70, '{"changes": [')`,
    )
    await expect(start()).rejects.toThrow(/part 70 of the snapshot at log seq 0 is not JSON/)
    expect(ds.dataClass('Item').length).toBe(0)
  })

  it('a process that stops while writing a snapshot gives it up: nothing of it is left', async () => {
    const a = await node(items(2000), { rowsPerRecord: 1, sliceMs: 0 })
    await post(a, { name: 'one more' })
    const written = a.cluster.snapshot().then(
      () => 'written',
      (e: Error) => e.name,
    )
    // The first slices are in.
    await new Promise((r) => setTimeout(r, 20))
    await nodes.closeAll()
    expect(await written).toBe('AbortError')
    expect(await snapshotSeqs()).toEqual([0])
    const b = await node(items(3))
    expect(b.ds.dataClass('Item').length).toBe(2001)
  })
})
