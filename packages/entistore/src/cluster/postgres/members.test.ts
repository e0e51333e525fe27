// The members table's statements and rows, checked without PostgreSQL: a lease's length and the
// seq applied are written into the texts (checked first), and the rows read back as numbers.
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { joinSql, membersSql, readMembers, renewSql, type MemberRow } from './members.js'
import { LogTables } from './schema.js'

const t = { ...new LogTables('rec', 'p_'), origin: "o'1" }

describe('the processes serving', () => {
  it('as a write reads them: the others whose lease runs, fenced or not, with its time left', () => {
    expect(membersSql(t)).toBe(`SELECT origin, applied, evicted_at IS NOT NULL AS evicted,
         (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::float8 AS remaining
       FROM "rec"."p_members"
       WHERE origin <> 'o''1' AND expires_at > clock_timestamp()`)
    const rows: MemberRow[] = [
      { origin: 'a', evicted: false, applied: '12', remaining: 1500.25 },
      { origin: 'b', evicted: true, applied: '0', remaining: 3 },
    ]
    expect(readMembers({ rows } as pg.QueryResult<MemberRow>)).toEqual([
      { origin: 'a', evicted: false, applied: 12, remaining: 1500.25 },
      { origin: 'b', evicted: true, applied: 0, remaining: 3 },
    ])
  })

  it('join under the log’s lock, their lease written and the log’s head read in one text', () => {
    expect(joinSql(t, 2000, 41))
      .toBe(`BEGIN; SELECT pg_advisory_xact_lock(1701737577, hashtext('rec.p_'));
       DELETE FROM "rec"."p_members" WHERE expires_at < clock_timestamp() - interval '1 hour';
       INSERT INTO "rec"."p_members" (origin, expires_at, applied)
         VALUES ('o''1', clock_timestamp() + 2000 * interval '1 millisecond', 41)
         ON CONFLICT (origin) DO UPDATE SET expires_at = excluded.expires_at,
           evicted_at = NULL, applied = excluded.applied;
       SELECT coalesce(max(seq), 0) AS head FROM "rec"."p_log";
       COMMIT`)
  })

  it('renew a lease only while it holds (not fenced, not run out), the seq applied never going back', () => {
    expect(renewSql(t, 1000, 3)).toBe(`UPDATE "rec"."p_members"
          SET expires_at = clock_timestamp() + 1000 * interval '1 millisecond',
              applied = greatest(applied, 3)
        WHERE origin = $1 AND evicted_at IS NULL AND expires_at > clock_timestamp()`)
  })

  it('refuse a lease or a seq that cannot go into the text', () => {
    expect(() => joinSql(t, 0, 1)).toThrow('postgres: a duration must be a positive integer')
    expect(() => joinSql(t, 10, -1)).toThrow('postgres: a log position must be an integer')
    expect(() => renewSql(t, 1.5, 1)).toThrow(TypeError)
    expect(() => renewSql(t, 10, Number.NaN)).toThrow(TypeError)
  })
})
