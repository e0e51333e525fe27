/**
 * @module What the acting session may see of each dataclass, as the query engine asks it: a
 * dataclass's `restrict` event (4D 20 R5) is orda's (orda/restrict/restrict.ts), and orda implements this
 * interface over it (orda/restrict/restrict-visibility.ts).
 *
 * A hidden entity is, for the session, as if it did not exist, wherever a relation leads: a
 * comparison through a relation (`employer.name = 'x'`, `staff.salary > 5`) finds no related entity
 * there, an ordering through one sorts it as a null, and a query path counts only visible rows. It
 * behaves as a related entity that was dropped does: the foreign key itself (`employer = 2`,
 * `employer = null`) is the visible entity's own stored value and is compared as it is.
 *
 * A datastore without any `restrict` has no Visibility at all: the engine then asks nothing and
 * pays nothing.
 */
import type { RowIds } from '../sets/row-ids.js'
import type { DataClassDef } from '../schema/definitions.js'
import type { RowMembership } from '../sets/row-bitmap.js'

export interface Visibility {
  /** The row ids of dataclass `name` the acting session may see, or undefined when it sees all. */
  rowsOf(name: string): RowMembership | undefined
}

/** The visible rows of a dataclass, by its definition: what the executor and the orderings ask. */
export type AllowedRows = (dc: DataClassDef) => RowMembership | undefined

/**
 * One query's view of `visibility`: each dataclass asked once (the executor asks at every join),
 * and the answers kept for what is read after the query (its explain text), which may be read
 * after the session stopped acting.
 */
export function allowedRows(visibility: Visibility): AllowedRows {
  const kept = new Map<DataClassDef, RowMembership | undefined>()
  return (dc) => {
    if (kept.has(dc)) return kept.get(dc)
    const rows = visibility.rowsOf(dc.name)
    kept.set(dc, rows)
    return rows
  }
}

/** The rows of `rows` in `allowed` (`rows` itself when nothing is restricted). */
export function visibleRows<R extends RowIds>(
  rows: R,
  allowed: RowMembership | undefined,
): R | number[] {
  if (allowed === undefined) return rows
  const out: number[] = []
  for (let i = 0; i < rows.length; i++) if (allowed.has(rows[i]!)) out.push(rows[i]!)
  return out
}
