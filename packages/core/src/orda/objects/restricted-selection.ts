/**
 * @module `restrictedSelection`, the public face of restrict (restrict/restrict.ts) for a
 * selection: here, beside the EntitySelection it takes and gives, since restrict names a selection
 * only by what it reads of it.
 */
import { restriction, restrictedRows } from '../restrict/restrict.js'
import type { DataClass } from './data-class.js'
import type { EntitySelection } from './entity-selection.js'

/**
 * `selection` without the entities its dataclass's `restrict` hides from the acting session, in
 * its order (itself when nothing is hidden): for a selection made elsewhere (a function's reply,
 * an entity set) that a session is about to see.
 */
export function restrictedSelection<S extends EntitySelection>(selection: S): S {
  const dc = selection.dataClass as unknown as DataClass
  if (restriction(dc) === undefined) return selection
  const rows = selection.rowIds
  const kept = restrictedRows(dc, rows)
  return (kept.length === rows.length ? selection : dc.select(kept)) as S
}
