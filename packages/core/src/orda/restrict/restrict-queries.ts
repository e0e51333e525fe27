/**
 * @module The queries a `restrict` event makes of its own dataclass, kept between writes and
 * brought forward row by row.
 *
 * A restrict is asked again after every write (its answer is kept per data version:
 * restrict-answers.ts), and most restricts are one query (`This.query("owner = :1";
 * Session.userName)`). Without an index that query scans the table, so every write cost a scan
 * per view that reads: a live feed of 100,000 rows paid it for each event. A query that reads only
 * the entity's own stored attributes (no relation, no computed attribute, no alias) and takes
 * plain values has an answer that changes only where a row changed. So its rows are kept as a
 * bitmap (a bit a row), and at the next version only the rows written since are tested again
 * (store/recent-changes.ts; a row test is the executor's own predicate: query/row-test.ts), on a
 * copy of the bitmap. When those rows are not known (a load, a restore, too many writes since),
 * the query runs again.
 *
 * The selection handed to the restrict code holds its rows unmade (DeferredRowIds, in primary-key
 * order when read), and `keptRows` tells restrict.ts the bitmap behind it: a restrict that returns
 * the query as it came costs no array of its rows at all.
 *
 * The answer depends on the data alone, not on who asks: the code around it still runs as the
 * view (its privileges are checked by the prepared query before it comes here), and gives the
 * values.
 */
import { LRUCache } from 'lru-cache'
import type { FilterNode, QueryNode } from '../../query/ast.js'
import { KeptReads } from '../../query/kept-reads.js'
import { resultOrdering } from '../../query/run-query.js'
import { RowTest } from '../../query/row-test.js'
import type { DataClassDef } from '../../schema/definitions.js'
import { RowBitmap } from '../../sets/row-bitmap.js'
import { DeferredRowIds } from '../../sets/row-ids.js'
import { RecentChanges } from '../../store/recent-changes.js'
import type {
  RestrictedClass,
  RestrictedDatastore,
  RestrictedSelection,
} from './restricted-class.js'

/** Bytes of kept query rows per datastore (a bit a row: 1,000 queries of 100,000 rows is 12 MB). */
export const RESTRICT_QUERY_BYTES = 64 * 1024 * 1024

interface Kept {
  readonly version: number
  readonly rows: RowBitmap
  readonly test: RowTest
  readonly selection: RestrictedSelection
}

interface Memory {
  readonly kept: LRUCache<string, Kept>
  readonly changes: RecentChanges
}

const memories = new WeakMap<RestrictedDatastore, Memory>()
// The bitmap behind each selection handed out: what restrict.ts takes instead of its rows.
const behind = new WeakMap<RestrictedSelection, RowBitmap>()

/** The bitmap of a selection this module handed out (unchanged since), if it is one. */
export function keptRows(selection: RestrictedSelection): RowBitmap | undefined {
  const rows = behind.get(selection)
  // An alterable selection (`ds.makeSelectionsAlterable()`) may have been added to since.
  return rows !== undefined && !selection.isAlterable() ? rows : undefined
}

/**
 * What `query` on `def` reads, when it can be kept: a filter of comparisons on the dataclass's own
 * stored attributes (written out, not a placeholder's path), with no ordering; undefined otherwise.
 */
export function keepable(def: DataClassDef, query: QueryNode): KeptReads | undefined {
  if (query.filter === null || query.orderBy.length > 0) return undefined
  const reads = new KeptReads()
  const own = (node: FilterNode): boolean => {
    switch (node.kind) {
      case 'Comparison': {
        const { path } = node
        if (path.kind !== 'AttributePath' || path.segments.length !== 1) return false
        const attr = def.attributesByName.get(path.segments[0]!.name)
        if (attr?.kind !== 'storage') return false
        reads.needRead(def, attr)
        return true
      }
      case 'Logical':
        return node.operands.every(own)
      case 'Not':
        return own(node.operand)
    }
  }
  return own(query.filter) ? reads : undefined
}

/**
 * The selection of `query` (keepable, parsed from `text`) with `params` on `dc`, kept and brought
 * forward; undefined
 * when the values are not plain (what a key cannot say), and the caller runs it. `run` runs it.
 */
export function keptQuery<S extends RestrictedSelection>(
  dc: RestrictedClass<S>,
  text: string,
  query: QueryNode,
  params: readonly unknown[],
  run: () => S,
): S | undefined {
  if (!params.every(isPlain)) return undefined
  const ds = dc.datastore
  const memory = memoryOf(ds)
  const key = `${dc.name}\u0000${text}\u0000${JSON.stringify(params)}`
  const version = ds.store.version
  const kept = memory.kept.get(key)
  // A key names one dataclass, whose selections are all of type S.
  if (kept !== undefined && kept.version === version) return kept.selection as S
  const changed = kept && memory.changes.since(dc.table, kept.version)
  let made: Kept
  if (kept !== undefined && changed !== undefined) {
    const rows = kept.rows.with(
      changed,
      (row) => dc.table.has(row) && kept.test.matches(row, version),
    )
    made = { version, rows, test: kept.test, selection: selectionOf(dc, rows) }
  } else {
    const selection = run()
    const rows = RowBitmap.of(selection.unorderedRowIds)
    const test = kept?.test ?? new RowTest(ds.querySource, dc.def, query, { params })
    made = { version, rows, test, selection }
  }
  memory.kept.set(key, made)
  behind.set(made.selection, made.rows)
  return made.selection as S
}

// The rows of `rows` as a selection in primary-key order, made only when read.
function selectionOf<S extends RestrictedSelection>(dc: RestrictedClass<S>, rows: RowBitmap): S {
  const ordering = resultOrdering(dc.datastore.querySource, dc.table, [])
  return dc.select(new DeferredRowIds(rows.size, () => rows.toArray()), ordering)
}

function memoryOf(ds: RestrictedDatastore): Memory {
  let memory = memories.get(ds)
  if (memory === undefined)
    memories.set(
      ds,
      (memory = {
        kept: new LRUCache<string, Kept>({
          maxSize: RESTRICT_QUERY_BYTES,
          sizeCalculation: (k, key) => 300 + key.length * 2 + k.rows.byteLength,
        }),
        changes: new RecentChanges(ds.store),
      }),
    )
  return memory
}

const isPlain = (v: unknown): boolean =>
  v === null ||
  typeof v === 'string' ||
  typeof v === 'boolean' ||
  (typeof v === 'number' && Number.isFinite(v))
