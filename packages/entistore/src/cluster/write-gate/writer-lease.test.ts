/**
 * One writer per datastore, against a real PostgreSQL: the lock decides who writes, a writer's
 * end or stall hands it on, and nothing an old writer appends lands. Time is a manual clock
 * (staleness is measured on it); PostgreSQL's own waits are real.
 */
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { postgresPerFile, postgresSkip } from '../postgres-server.fixture.js'
import { WriterLease, type LeaseState, type WriterLeaseOptions } from './writer-lease.js'

const db = postgresPerFile()
let schemas = 0
/** Every lease a test made: closed after it. */
const open: WriterLease[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()))
})

/** Leases of one datastore (a fresh prefix a test), a manual clock, and what they were told. */
function setup() {
  const prefix = `w${++schemas}_`
  let now = 0
  const fenced: string[] = []
  const lease = (origin: string, options: Partial<WriterLeaseOptions> = {}) => {
    const l = new WriterLease({
      connection: db.url,
      schema: 'public',
      prefix,
      origin,
      address: `http://${origin}`,
      now: () => now,
      onFenced: (why) => fenced.push(`${origin}: ${why}`),
      ...options,
    })
    return l
  }
  const sql = async <R extends pg.QueryResultRow>(text: string) => {
    const client = new pg.Client({ connectionString: db.url })
    await client.connect()
    try {
      return await client.query<R>(text)
    } finally {
      await client.end()
    }
  }
  /** A table an old or new writer appends to, fenced by its term. */
  const append = async (l: WriterLease, term: number, what: string) => {
    await sql(`CREATE TABLE IF NOT EXISTS ${prefix}log (what text)`)
    const r = await sql(
      `WITH ${l.fence(term)} INSERT INTO ${prefix}log SELECT '${what}' FROM fenced`,
    )
    return r.rowCount
  }
  const advance = (ms: number) => (now += ms)
  return { lease, sql, append, advance, fenced, prefix }
}

/**
 * Looks until `lease` writes, a few times: the old writer's backend exits in PostgreSQL a moment
 * after it was told to, and only then is its lock free.
 */
async function lookUntilWriter(lease: WriterLease): Promise<LeaseState> {
  let state = await lease.check()
  for (let i = 0; i < 20 && state.role !== 'writer'; i++) {
    await new Promise((r) => setTimeout(r, 25))
    state = await lease.check()
  }
  return state
}

describe.skipIf(postgresSkip !== undefined)('WriterLease', () => {
  it('the first to look writes, under term 1; the others follow it, knowing where it is', async () => {
    const s = setup()
    const a = s.lease('a')
    const b = s.lease('b')
    await a.ensureTable()
    await b.ensureTable()
    const first = await a.check()
    expect(first).toEqual({ role: 'writer', term: 1, token: expect.stringMatching(/^[\w-]{24}$/) })
    expect(await b.check()).toEqual({
      role: 'follower',
      writer: { term: 1, origin: 'a', address: 'http://a', token: a.token, beat: 0 },
    })
    expect(b.token).toBe('')
    // The writer beats at each look; a follower sees the beat move and leaves it be.
    for (let i = 1; i <= 5; i++) {
      expect(await a.check()).toEqual({ role: 'writer', term: 1, token: a.token })
      s.advance(1000)
      expect(await b.check()).toMatchObject({ role: 'follower', writer: { term: 1, beat: i } })
    }
    expect(s.fenced).toEqual([])
  })

  it('processes starting at once make the table once, none failing', async () => {
    const s = setup()
    const all = ['a', 'b', 'c', 'd', 'e', 'f'].map((o) => s.lease(o))
    await Promise.all(all.map((l) => l.ensureTable()))
    const states = await Promise.all(all.map((l) => l.check()))
    expect(states.filter((st) => st.role === 'writer')).toHaveLength(1)
  })

  it('a writer whose connection ends is followed by another at its next look, under a new term', async () => {
    const s = setup()
    const a = s.lease('a')
    const b = s.lease('b')
    await a.ensureTable()
    await a.check()
    await b.check()
    // As kill -9 does: the backend goes, and the session lock with it.
    await s.sql(
      `SELECT pg_terminate_backend(backend) FROM "public"."${s.prefix}writer" WHERE id = 1`,
    )
    const state = await lookUntilWriter(b)
    expect(state).toMatchObject({ role: 'writer', term: 2 })
    // The old writer learns it at its next look (its beat fails), and appends nothing more.
    expect(await a.check()).toMatchObject({ role: 'follower', writer: { origin: 'b', term: 2 } })
    expect(s.fenced).toHaveLength(1)
    expect(s.fenced[0]).toMatch(/^a: /)
    expect(await s.append(a, 1, 'old')).toBe(0)
    expect(await s.append(b, 2, 'new')).toBe(1)
  })

  it('a writer that stops beating is taken over after staleMs of the watcher’s clock, not before', async () => {
    const s = setup()
    const a = s.lease('a', { staleMs: 2000 })
    const b = s.lease('b', { staleMs: 2000 })
    await a.ensureTable()
    await a.check()
    // a is stopped (SIGSTOP): it looks no more, its connection and lock stay.
    expect(await b.check()).toMatchObject({ role: 'follower' })
    s.advance(1999)
    expect(await b.check()).toMatchObject({ role: 'follower', writer: { origin: 'a' } })
    s.advance(1)
    const state = await lookUntilWriter(b)
    expect(state).toMatchObject({ role: 'writer', term: 2 })
    // a resumes: fenced, and what it appends under its old term is refused.
    expect(await a.check()).toMatchObject({ role: 'follower', writer: { origin: 'b' } })
    expect(s.fenced.map((f) => f.slice(0, 2))).toEqual(['a:'])
    expect(await s.append(a, 1, 'late')).toBe(0)
  })

  it('watchers racing to take over a stalled writer: one term each, never two writers', async () => {
    const s = setup()
    const a = s.lease('a')
    const watchers = ['b', 'c', 'd', 'e'].map((o) => s.lease(o))
    await a.ensureTable()
    await a.check()
    await Promise.all(watchers.map((w) => w.check()))
    s.advance(5000)
    const writers = new Set<string>()
    for (let round = 0; round < 20 && writers.size === 0; round++) {
      const states = await Promise.all(watchers.map((w) => w.check()))
      states.forEach((st, i) => st.role === 'writer' && writers.add(['b', 'c', 'd', 'e'][i]!))
      if (writers.size === 0) await new Promise((r) => setTimeout(r, 25))
    }
    expect(writers.size).toBe(1)
    // Every watcher now follows the same writer, and it keeps its term as they look again, for
    // longer than staleMs in all, as long as it beats in between. (Time jumping past staleMs with
    // no beat would be a stall, and a takeover then is right: the test once did that, and lost
    // the race now and then.)
    const writer = watchers[['b', 'c', 'd', 'e'].indexOf([...writers][0]!)]!
    for (let round = 0; round < 4; round++) {
      s.advance(1500)
      expect(await writer.check()).toMatchObject({ role: 'writer', term: 2 })
      const again = await Promise.all(watchers.map((w) => (w === writer ? undefined : w.check())))
      expect(again.filter((st) => st?.role === 'writer')).toEqual([])
    }
    const row = await s.sql<{ term: string; origin: string }>(
      `SELECT term, origin FROM "public"."${s.prefix}writer"`,
    )
    expect(row.rows[0]).toEqual({ term: '2', origin: [...writers][0] })
  })

  it('an append under the old term that began before the takeover lands before it; none after', async () => {
    const s = setup()
    const a = s.lease('a')
    const b = s.lease('b')
    await a.ensureTable()
    await a.check()
    await s.sql(`CREATE TABLE ${s.prefix}log (what text)`)
    // The old writer's append, its transaction still open: it holds the term's row shared.
    const slow = new pg.Client({ connectionString: db.url })
    await slow.connect()
    try {
      await slow.query('BEGIN')
      const first = await slow.query(
        `WITH ${a.fence(1)} INSERT INTO ${s.prefix}log SELECT 'in flight' FROM fenced`,
      )
      expect(first.rowCount).toBe(1)
      await a.close() // its lock goes; the term's row is still held by the append
      let raised = false
      const takeover = (async () => {
        let st = await b.check()
        while (st.role !== 'writer') st = await b.check()
        raised = true
        return st
      })()
      await new Promise((r) => setTimeout(r, 100))
      expect(raised).toBe(false) // the raise waits for the append's transaction
      await slow.query('COMMIT')
      expect(await takeover).toMatchObject({ role: 'writer', term: 2 })
    } finally {
      await slow.end()
    }
    expect(await s.append(a, 1, 'after')).toBe(0)
    const rows = await s.sql<{ what: string }>(`SELECT what FROM ${s.prefix}log`)
    expect(rows.rows.map((r) => r.what)).toEqual(['in flight'])
  })

  it('a graceful close hands the lock on at once; fence() refuses a term that is no term', async () => {
    const s = setup()
    const a = s.lease('a')
    const b = s.lease('b')
    await a.ensureTable()
    await a.check()
    await a.close()
    const token = a.token
    expect(await b.check()).toEqual({ role: 'writer', term: 2, token: b.token })
    expect(b.token).not.toBe(token)
    expect(() => b.fence(0)).toThrow(TypeError)
    expect(() => b.fence(1.5)).toThrow(TypeError)
    await expect(a.check()).rejects.toThrow(/closed/)
  })
})
