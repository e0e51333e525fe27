// A snapshot's statements, checked without PostgreSQL (the snapshots themselves are tested on a
// real one: postgres-snapshot.test.ts).
import { describe, expect, it } from 'vitest'
import { LogTables } from './schema.js'
import { insertPartsSql, PARTS_PER_READ, partsSql } from './snapshots.js'

const t = new LogTables('rec', 'p_')

describe('the statements of a snapshot', () => {
  it('insert a slice of parts in one statement, numbered on from the parts before it', () => {
    expect(insertPartsSql(t, 9, 0, 1)).toBe(
      'INSERT INTO "rec"."p_snapshot" (seq, part, record) VALUES (9, 0, $1)',
    )
    expect(insertPartsSql(t, 9, 4, 3)).toBe(
      'INSERT INTO "rec"."p_snapshot" (seq, part, record) VALUES (9, 4, $1), (9, 5, $2), (9, 6, $3)',
    )
  })

  it('read the parts back a page at a time', () => {
    expect(partsSql(t)).toBe(`SELECT part, record FROM "rec"."p_snapshot"
          WHERE seq = $1 AND part >= $2 ORDER BY part LIMIT ${PARTS_PER_READ}`)
    expect(PARTS_PER_READ).toBe(64)
  })
})
