// The tables' names, channels, locks and CREATE statements, checked without PostgreSQL: they are
// those of the databases made by earlier versions, which must keep working as they are.
import { describe, expect, it } from 'vitest'
import { checkedMs, checkedSeq, LogTables, LZ4_SQL, tablesSql } from './schema.js'

describe('the tables of a PostgreSQL log', () => {
  it('are named after the schema and the prefix, quoted; so are the channels and the locks', () => {
    expect(new LogTables('rec', 'p_')).toEqual({
      logTable: '"rec"."p_log"',
      snapshotTable: '"rec"."p_snapshot"',
      membersTable: '"rec"."p_members"',
      channel: 'rec_p_log',
      ackChannel: 'rec_p_ack',
      lockSql: "SELECT pg_advisory_xact_lock(1701737577, hashtext('rec.p_'))",
      snapshotLockSql: "SELECT pg_try_advisory_xact_lock(1701737587, hashtext('rec.p_')) AS locked",
    })
    // The defaults joinCluster gives, and an empty prefix.
    expect(new LogTables('public', 'entistore_').logTable).toBe('"public"."entistore_log"')
    expect(new LogTables('app', '').snapshotTable).toBe('"app"."snapshot"')
  })

  it('cuts a channel at 63 characters, as PostgreSQL does a name', () => {
    const t = new LogTables('s'.repeat(40), 'p'.repeat(40))
    expect(t.channel).toBe(`${'s'.repeat(40)}_${'p'.repeat(22)}`)
    expect(t.ackChannel).toHaveLength(63)
  })

  it('refuses a name that is not a lower-case identifier', () => {
    expect(() => new LogTables('App', 'p_')).toThrow(
      'postgres: the schema must be a lower-case identifier',
    )
    expect(() => new LogTables('app', 'a-b')).toThrow('postgres: the prefix must be empty or')
    expect(() => new LogTables('', 'p_')).toThrow(TypeError)
  })

  it('are made by the statements every version made them with', () => {
    const sql = tablesSql(new LogTables('rec', 'p_'))
    expect(sql.schema).toBe('CREATE SCHEMA IF NOT EXISTS "rec"')
    expect(sql.log).toBe(`CREATE TABLE IF NOT EXISTS "rec"."p_log" (
           seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
           origin text NOT NULL,
           at timestamptz NOT NULL DEFAULT clock_timestamp(),
           record text NOT NULL)`)
    expect(sql.snapshot(true)).toBe(`CREATE TABLE IF NOT EXISTS "rec"."p_snapshot" (
           seq bigint NOT NULL,
           part integer NOT NULL,
           at timestamptz NOT NULL DEFAULT clock_timestamp(),
           record text COMPRESSION lz4 NOT NULL,
           PRIMARY KEY (seq, part))`)
    // Without lz4 (PostgreSQL 13 or earlier, or built without it): the server's default.
    expect(sql.snapshot(false)).toContain('record text NOT NULL,')
    expect(sql.members).toBe(`CREATE TABLE IF NOT EXISTS "rec"."p_members" (
           origin text PRIMARY KEY,
           expires_at timestamptz NOT NULL,
           evicted_at timestamptz,
           applied bigint NOT NULL,
           joined_at timestamptz NOT NULL DEFAULT clock_timestamp())`)
    expect(LZ4_SQL).toBe(`SELECT 'lz4' = ANY(enumvals) AS available FROM pg_settings
          WHERE name = 'default_toast_compression'`)
  })
})

describe('the numbers written into a statement', () => {
  it('are integers, checked before they go in', () => {
    expect(checkedSeq(0)).toBe(0)
    expect(checkedSeq(42)).toBe(42)
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 53])
      expect(() => checkedSeq(bad)).toThrow('postgres: a log position must be an integer')
    expect(checkedMs(1)).toBe(1)
    for (const bad of [0, -5, 2.5, Infinity])
      expect(() => checkedMs(bad)).toThrow('postgres: a duration must be a positive integer')
  })
})
