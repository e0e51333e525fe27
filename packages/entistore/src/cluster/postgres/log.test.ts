// The log's statements and what is read back from them, checked without PostgreSQL: the texts a
// write sends (the values written into them, quoted), the rows and seqs read back, and the
// notifications an append sends, read by the other processes.
import type { LogRecord } from '@entistore/core'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import {
  afterSql,
  appended,
  appendSql,
  listenSql,
  NOTIFY_RECORDS_BYTES,
  readLogRows,
  readNotice,
  type AfterRow,
} from './log.js'
import { itemInsert } from './items.fixture.js'
import { LogTables } from './schema.js'

const t = { ...new LogTables('rec', 'p_'), origin: 'o:1' }

const record = (name: string, key = 10): LogRecord => itemInsert(key, name)

const result = <R extends pg.QueryResultRow>(rows: R[]) => ({ rows }) as pg.QueryResult<R>

describe('reading the log after a seq', () => {
  it('is one statement: the oldest snapshot, and at most `limit` rows after the seq', () => {
    expect(afterSql(t, 7, 2)).toBe(`SELECT f.floor, l.seq, l.origin, l.at, l.record
         FROM (SELECT min(seq) AS floor FROM "rec"."p_snapshot") f
         LEFT JOIN LATERAL (
           SELECT seq, origin, (extract(epoch FROM at) * 1000)::float8 AS at, record
             FROM "rec"."p_log" WHERE seq > 7 ORDER BY seq LIMIT 2) l ON true`)
    // Written into the text: anything but an integer is refused before it goes in.
    expect(() => afterSql(t, 1.5, 2)).toThrow('postgres: a log position must be an integer')
    expect(() => afterSql(t, 1, Number.NaN)).toThrow(TypeError)
  })

  it('reads back the rows (bigints as text) and the floor; one null row when none came after', () => {
    const r1 = JSON.stringify(record('a', 1))
    const read = readLogRows(
      result<AfterRow>([
        { floor: '3', seq: '8', origin: 'o:2', at: 1000.5, record: r1 },
        { floor: '3', seq: '10', origin: 'o:1', at: 1001, record: r1 },
      ]),
    )
    expect(read).toEqual({
      rows: [
        { seq: 8, origin: 'o:2', at: 1000.5, record: record('a', 1) },
        { seq: 10, origin: 'o:1', at: 1001, record: record('a', 1) },
      ],
      floor: 3,
    })
    const none = result<AfterRow>([{ floor: null, seq: null, origin: '', at: 0, record: '' }])
    expect(readLogRows(none)).toEqual({ rows: [], floor: undefined })
    expect(readLogRows(result<AfterRow>([]))).toEqual({ rows: [], floor: undefined })
  })
})

describe('an append', () => {
  it('inserts the records and notifies `prev:first:last:at:origin`, a newline and the records, read back from the rows inserted (each record once in the text)', () => {
    const sql = appendSql(t, pg.escapeLiteral, [record("it's")], 5)
    const text = JSON.stringify(record("it's")).replace("'", "''")
    expect(sql).toBe(`WITH ins AS (
           INSERT INTO "rec"."p_log" (origin, record, request, reply)
             SELECT v.* FROM (VALUES ('o:1', '${text}', NULL, NULL)) AS v (origin, record, request, reply) RETURNING seq, record)
         SELECT min(seq) AS first, max(seq) AS last,
           CASE WHEN count(*) > 0 THEN
             pg_notify('rec_p_log', '5:' || min(seq) || ':' || max(seq) || ':' || (extract(epoch FROM clock_timestamp()) * 1000)::bigint || ':' || 'o:1
' || '[' || string_agg(record, ',' ORDER BY seq) || ']')
           END,
           true AS term_ok
           FROM ins`)
  })

  it("carries forwarded writes' ids and replies beside their records, and the writer's fence", () => {
    const tags = new Map([[1, { request: 'w:7', reply: '{"status":200}' }]])
    const fence =
      'fenced AS (SELECT term FROM "rec"."p_writer" WHERE id = 1 AND term = 3 FOR SHARE)'
    const sql = appendSql(t, pg.escapeLiteral, [record('a'), record('b')], 5, '', { tags, fence })
    expect(sql).toMatch(/^WITH fenced AS \(.*\), ins AS \(/)
    expect(sql).toContain(`, NULL, NULL), ('o:1', `)
    expect(sql).toContain(`, 'w:7', '{"status":200}'))`)
    expect(sql).toContain('AS v (origin, record, request, reply), fenced RETURNING seq, record)')
    expect(sql).toContain('(SELECT count(*) > 0 FROM fenced) AS term_ok')
  })

  it('takes a condition that may leave every row out (appendIfAt), and no notification then', () => {
    const only = 'WHERE NOT EXISTS (SELECT 1 FROM "rec"."p_log" WHERE seq > 5)'
    const sql = appendSql(t, pg.escapeLiteral, [record('a'), record('b', 11)], 5, only)
    expect(sql).toContain(`AS v (origin, record, request, reply) ${only} RETURNING seq, record)`)
    expect(sql).toContain("', NULL, NULL), ('o:1', '")
    expect(sql).toContain('CASE WHEN count(*) > 0 THEN')
  })

  it('leaves the records out of the notification when they would not fit in its payload', () => {
    const fits = 'x'.repeat(NOTIFY_RECORDS_BYTES - 300)
    const big = 'x'.repeat(NOTIFY_RECORDS_BYTES)
    const carried = `'o:1\n' || '[' || string_agg(record, ',' ORDER BY seq) || ']')\n`
    expect(appendSql(t, pg.escapeLiteral, [record(fits)], 0)).toContain(carried)
    expect(appendSql(t, pg.escapeLiteral, [record(big)], 0)).toContain(`'o:1\n')\n`)
    // Counted in bytes, not characters.
    const accents = 'é'.repeat(NOTIFY_RECORDS_BYTES / 2)
    expect(appendSql(t, pg.escapeLiteral, [record(accents)], 0)).toContain(`'o:1\n')\n`)
  })

  it('refuses a head that is not a log position', () => {
    expect(() => appendSql(t, pg.escapeLiteral, [record('a')], -1)).toThrow(
      'postgres: a log position must be an integer',
    )
  })

  it('reads back the seqs it got, or none when the condition left every row out', () => {
    expect(appended(result([{ first: '4', last: '6' }]))).toEqual({ first: 4, last: 6 })
    expect(appended(result([{ first: null, last: null }]))).toBeUndefined()
    expect(appended(result([]))).toBeUndefined()
  })

  it('throws ClusterWriteFailed when the fence refused it: another process writes now', () => {
    expect(() => appended(result([{ first: null, last: null, term_ok: false }]))).toThrow(
      expect.objectContaining({
        errCode: 9132,
        message: expect.stringMatching(/no longer the writer/),
      }),
    )
    expect(appended(result([{ first: '4', last: '4', term_ok: true }]))).toEqual({
      first: 4,
      last: 4,
    })
  })
})

describe('the notifications of the log', () => {
  it('are heard on the log’s channel, and the acknowledgements’ where they are waited for', () => {
    expect(listenSql(t, true)).toBe(
      'LISTEN "rec_p_log"; LISTEN "rec_p_ack"; SET synchronous_commit TO off',
    )
    expect(listenSql(t, false)).toBe('LISTEN "rec_p_log"; SET synchronous_commit TO off')
  })

  it('are read back: the seqs, the time, the origin (colons and all) and the records', () => {
    const records = [record('a'), record('b', 11)]
    expect(readNotice(`4:5:6:1700000000000:host:12:ab\n${JSON.stringify(records)}`)).toEqual({
      prev: 4,
      first: 5,
      last: 6,
      at: 1700000000000,
      origin: 'host:12:ab',
      records,
    })
    // Records too long for the payload: the follower reads them from the log.
    expect(readNotice('4:5:6:1700000000000:o\n')).toMatchObject({ origin: 'o', records: undefined })
    // Records of no use here (its own group): left unread, broken or not.
    const own = (n: { origin: string }) => n.origin === 'o'
    expect(readNotice('4:5:6:1700000000000:o\n[not json', own)).toMatchObject({
      origin: 'o',
      last: 6,
      records: undefined,
    })
    expect(() => readNotice('4:5:6:1700000000000:p\n[not json', own)).toThrow(SyntaxError)
  })

  it('from an earlier version, are the last seq alone', () => {
    expect(readNotice('17')).toMatchObject({ prev: undefined, first: 17, last: 17, origin: '' })
  })

  it('are not taken when unreadable (the log is read instead)', () => {
    expect(readNotice('')).toBeUndefined()
    expect(readNotice('4:5:6')).toBeUndefined()
    expect(readNotice('4:5:6:7\n[]')).toBeUndefined()
    expect(() => readNotice('4:5:6:7:o\n[not json')).toThrow(SyntaxError)
  })
})
