/**
 * @module Undoing commits that are already applied: a write that ran in memory but could not be
 * made durable elsewhere (PostgreSQL refused its transaction: the `entistore` package's cluster/)
 * must leave nothing behind, and the core's commit cannot be held back while an async service
 * answers, since it is synchronous.
 *
 * `revertPoint(store)` notes, before the commits, what a commit moves besides rows: the global
 * stamp, each table's next row id, deletion count and sequences (a few numbers per dataclass, no
 * copy of the data). `revertCommits(store, commits, point)` then applies the inverse changes, last
 * commit first (insert → delete, update → the version before, delete → the version before put
 * back on its row id), as ONE commit of kind `replay` through the same `Store.commit`, so that
 * indexes and columns follow and listeners hear of it (a journal skips replays, as it skips the
 * log it reads back), and puts the numbers back. What a user can observe is then as before the
 * commits: rows, keys, stamps, indexes, sequences, global stamp, the next row id
 * (revert.prop.test.ts). Only the order of row ids inside a hash bucket may differ, which no read
 * depends on (hash-index.ts).
 */
import type { Change } from './changes.js'
import type { Store } from './store.js'
import type { Table } from './table.js'

/** What a store's commits move besides rows, as it was at one moment (see revertCommits). */
export interface RevertPoint {
  readonly globalStamp: number
  readonly tables: ReadonlyMap<
    Table,
    {
      readonly nextRowId: number
      readonly deletions: number
      readonly sequences: ReadonlyMap<string, number>
    }
  >
}

/** Notes what `revertCommits` puts back; cheap (a few numbers per dataclass). */
export function revertPoint(store: Store): RevertPoint {
  const tables = new Map<
    Table,
    RevertPoint['tables'] extends ReadonlyMap<Table, infer S> ? S : never
  >()
  for (const dc of store.schema.dataClasses) {
    const table = store.table(dc.name)
    tables.set(table, {
      nextRowId: table.nextRowId,
      deletions: table.deletions,
      sequences: new Map(table.autosequenced.map((name) => [name, table.peekSequence(name) - 1])),
    })
  }
  return { globalStamp: store.globalStamp, tables }
}

/**
 * Undoes `commits` (each the change list a commit listener received, in the order they were
 * committed), which must be every commit since `point` was taken: the store is then as it was
 * at `point`. Nothing is undone when there is nothing to undo.
 */
export function revertCommits(
  store: Store,
  commits: readonly (readonly Change[])[],
  point: RevertPoint,
): void {
  const inverse: Change[] = []
  for (let i = commits.length - 1; i >= 0; i--) {
    const changes = commits[i]!
    for (let j = changes.length - 1; j >= 0; j--) inverse.push(inverseOf(changes[j]!))
  }
  const sequences = new Map<Table, Map<string, number>>()
  for (const [table, state] of point.tables)
    if (state.sequences.size > 0) sequences.set(table, new Map(state.sequences))
  store.commit(inverse, {
    kind: 'replay',
    replayed: { globalStamp: point.globalStamp, sequences },
  })
  for (const [table, state] of point.tables) table.rewind(state.nextRowId, state.deletions)
}

/** Undoes one commit's `changes` (see revertCommits). */
export function revertCommit(store: Store, changes: readonly Change[], point: RevertPoint): void {
  revertCommits(store, [changes], point)
}

function inverseOf(change: Change): Change {
  switch (change.op) {
    case 'insert':
      return { op: 'delete', table: change.table, before: change.record }
    case 'update':
      return { op: 'update', table: change.table, before: change.after, after: change.before }
    case 'delete':
      return { op: 'insert', table: change.table, record: change.before }
  }
}
