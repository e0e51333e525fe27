/**
 * `entistore serve --postgres` as separate processes on one real PostgreSQL: what one commits is
 * read through the other, a stale stamp through the other is refused (409, status 2), and a
 * process killed with SIGKILL in the middle of a write load loses no acknowledged write and leaves
 * no batch in part: a restarted process and the one that kept running both hold exactly the
 * same entities, every acknowledged one among them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { itemWriteLoad, startServe, stopChildren } from '../../persist/cli-process.fixture.js'
import { postgresSkip, startPostgres, type PostgresServer } from '../postgres-server.fixture.js'

/**
 * How long a process may take to show what another committed before the test gives up: a bound on
 * a hang, never on a correct run however busy the machine (idle, it follows within milliseconds;
 * the bounds of 3 s and 5 s it had were deadlines that a loaded machine could reach).
 */
const FOLLOW_MS = 30_000

const MODEL = {
  __NAME: 'cluster-cli',
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', unique: true },
      ],
    },
  ],
}

const folder = mkdtempSync(join(tmpdir(), 'entistore-pg-cli-'))
const model = join(folder, 'model.json')
const data = join(folder, 'data.json')
writeFileSync(model, JSON.stringify(MODEL))
writeFileSync(data, JSON.stringify({ Item: [{ name: 'seed' }] }))
let pg: PostgresServer

beforeAll(async () => {
  if (postgresSkip === undefined) pg = await startPostgres()
})
afterAll(async () => {
  stopChildren()
  await pg?.stop()
  rmSync(folder, { recursive: true, force: true })
})

const start = (url: string, ...more: string[]) =>
  startServe(
    ['-m', model, '-d', data, '--postgres', url, ...more],
    'Sharing the data through PostgreSQL',
  )

async function names(url: string): Promise<Set<string>> {
  const reply = await fetch(`${url}/rest/Item?$top=100000&$attributes=name`)
  const body = (await reply.json()) as { __ENTITIES: { name: string }[] }
  return new Set(body.__ENTITIES.map((e) => e.name))
}

describe.skipIf(postgresSkip !== undefined)('entistore serve --postgres, several processes', () => {
  it('share their writes, and refuse a stale stamp sent through the other', async () => {
    const db = await pg.freshDatabase()
    const a = await start(db)
    const b = await start(db)
    const created = await fetch(`${a.url}/rest/Item?$method=update`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'from-a' }),
    })
    const entity = (await created.json()) as { __KEY: string; __STAMP: number }
    const t0 = Date.now()
    while (!(await names(b.url)).has('from-a')) {
      expect(Date.now() - t0).toBeLessThan(FOLLOW_MS)
      await new Promise((r) => setTimeout(r, 10))
    }
    const update = (url: string, name: string) =>
      fetch(`${url}/rest/Item?$method=update`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ __KEY: entity.__KEY, __STAMP: entity.__STAMP, name }),
      })
    expect((await update(b.url, 'renamed-by-b')).status).toBe(200)
    const stale = await update(a.url, 'renamed-by-a')
    expect(stale.status).toBe(409)
    expect(JSON.stringify(await stale.json())).toMatch(/"status":2\b/)
    a.child.kill('SIGTERM')
    b.child.kill('SIGTERM')
  })

  it('keep datastores under different schemas or prefixes of one database apart', async () => {
    const db = await pg.freshDatabase()
    const plain = await start(db)
    const prefixed = await start(db, '--postgres-prefix', 'other_')
    const schema = await start(db, '--postgres-schema', 'tenant_b', '--postgres-prefix', '')
    const create = (url: string, name: string) =>
      fetch(`${url}/rest/Item?$method=update`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      })
    expect((await create(plain.url, 'in-plain')).status).toBe(200)
    expect((await create(prefixed.url, 'in-other')).status).toBe(200)
    expect((await create(schema.url, 'in-tenant')).status).toBe(200)
    // A second process on the same prefix follows the first, and only it.
    const prefixed2 = await start(db, '--postgres-prefix', 'other_')
    expect([...(await names(prefixed2.url))].sort()).toEqual(['in-other', 'seed'])
    expect([...(await names(plain.url))].sort()).toEqual(['in-plain', 'seed'])
    expect([...(await names(schema.url))].sort()).toEqual(['in-tenant', 'seed'])
    const tables = await pg.query(
      `SELECT table_schema || '.' || table_name AS t FROM information_schema.tables
        WHERE table_name LIKE '%log' OR table_name LIKE '%snapshot' ORDER BY 1`,
      new URL(db).pathname.slice(1),
    )
    expect(tables.rows.map((r: { t: string }) => r.t)).toEqual([
      'public.entistore_log',
      'public.entistore_snapshot',
      'public.other_log',
      'public.other_snapshot',
      'tenant_b.log',
      'tenant_b.snapshot',
    ])
    for (const s of [plain, prefixed, schema, prefixed2]) s.child.kill('SIGTERM')
  })

  it('a process killed mid-load loses no acknowledged write and leaves no batch in part', async () => {
    const db = await pg.freshDatabase()
    const a = await start(db)
    const b = await start(db)
    const died = new Promise((resolve) => a.child.on('exit', resolve))
    // Four clients, two on each process, until A is killed; then B's go on a little.
    let killedAt = -1
    const load = await itemWriteLoad([a.url, b.url], 4, (l) => {
      if (killedAt < 0 && l.acknowledged.size >= 300) {
        killedAt = l.acknowledged.size
        a.child.kill('SIGKILL')
      }
      return killedAt >= 0 && l.acknowledged.size >= killedAt + 50
    })
    await died
    const restarted = await start(db)
    const there = await names(restarted.url)
    const t0 = Date.now()
    // B follows the log too: the same entities, once it has applied the last records.
    while ((await names(b.url)).size !== there.size) {
      expect(Date.now() - t0).toBeLessThan(FOLLOW_MS)
      await new Promise((r) => setTimeout(r, 20))
    }
    expect([...(await names(b.url))].sort()).toEqual([...there].sort())
    expect(load.acknowledged.size).toBeGreaterThanOrEqual(350)
    expect([...load.acknowledged].filter((n) => !there.has(n))).toEqual([])
    expect([...there].filter((n) => n !== 'seed' && !load.sent.has(n))).toEqual([])
    for (const batch of load.batches.values()) {
      const found = batch.filter((n) => there.has(n)).length
      expect([0, batch.length], `batch ${batch[0]}`).toContain(found)
    }
    expect(there.has('seed')).toBe(true)
    b.child.kill('SIGTERM')
    restarted.child.kill('SIGTERM')
  })
})
