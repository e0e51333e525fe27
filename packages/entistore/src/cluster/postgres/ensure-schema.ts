/**
 * @module A log's schema and tables made if absent, through its connection (connection.ts), from
 * the statements schema.ts builds: apart from them, as the connection is built on schema.ts.
 */
import type { LogConnection } from './connection.js'
import { LZ4_SQL, tablesSql } from './schema.js'

/** Creates the schema and tables if absent (under the lock: several processes may start at once). */
export async function ensureSchema(db: LogConnection): Promise<void> {
  const sql = tablesSql(db)
  await db.transaction(async ({ client }) => {
    await db.lock(client)
    await client.query(sql.schema)
    await client.query(sql.log)
    await client.query(sql.logTags)
    // A snapshot's part (100 KB or more of JSON) is compressed by PostgreSQL (TOAST): with its
    // default, pglz, that was half a snapshot's time, on the CPU the server shares with the
    // processes (1M short rows: 8.0-8.9 s, 4.2 s with lz4). lz4 where the server has it
    // (PostgreSQL 14 or later, built with it), set when the table is made: an ALTER later would
    // wait for a snapshot being written, the log's lock held.
    const lz4 = await client.query<{ available: boolean }>(LZ4_SQL)
    await client.query(sql.snapshot(lz4.rows[0]?.available === true))
    await client.query(sql.members)
  })
}
