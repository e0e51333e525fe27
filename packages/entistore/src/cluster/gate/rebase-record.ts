/**
 * @module Rebasing a log record made on an older state onto the store as it is now, so that a
 * commit made outside a write (outside-commits.ts) can be applied again after a catch-up.
 */
import type { Datastore, LogRecord } from '@entistore/core'

/**
 * `record`, made on an older state, as if made on the store as it is now: updated entities get
 * the stamp after their current one, the global stamp continues from the store's, sequences never
 * go back. (Its rows are applied as they are: last writer wins.)
 */
export function rebaseRecord(ds: Datastore, record: LogRecord): LogRecord {
  const store = ds.store
  const changes = record.changes.map((c) => {
    if (c.op !== 'update') return c
    const current = store.findTable(c.dataClass)?.recordByKey(c.key)
    return current ? { ...c, stamp: current.stamp + 1 } : c
  })
  const sequences: Record<string, Record<string, number>> = {}
  for (const [name, values] of Object.entries(record.sequences)) {
    const table = store.findTable(name)
    sequences[name] = Object.fromEntries(
      Object.entries(values).map(([attr, v]) => [
        attr,
        Math.max(v, table ? table.peekSequence(attr) - 1 : 0),
      ]),
    )
  }
  const moves = record.kind === 'write' ? record.changes.length : 0
  return { ...record, changes, sequences, globalStamp: store.globalStamp + moves }
}
