/**
 * @module What `restrict` needs of a dataclass, its selections and its datastore: named by these
 * members, which DataClass, EntitySelection and Datastore have, and not by their classes, which
 * call restrict at every read and would otherwise be named back by it. The public
 * `restrictedSelection`, which takes and gives the EntitySelection, is with the objects
 * (objects/restricted-selection.ts).
 */
import type { AccessRule } from '../../access/access-rule.js'
import type { Clock } from '../../clock/clock.js'
import type { RestrictHandler } from '../../functions/registry.js'
import type { Ordering } from '../../query/order.js'
import type { QuerySource } from '../../query/run-query.js'
import type { DataClassDef } from '../../schema/definitions.js'
import type { Session } from '../../sessions/session-api.js'
import type { RowIds, SelectionRowIds } from '../../sets/row-ids.js'
import type { Store } from '../../store/store.js'
import type { Table } from '../../store/table.js'
import type { CallDatastore } from '../calls/call-datastore.js'

/** A selection as restrict reads it: its dataclass, its rows, and whether it may still grow. */
export interface RestrictedSelection {
  readonly dataClass: object
  readonly rowIds: RowIds
  readonly unorderedRowIds: RowIds
  isAlterable(): boolean
}

/** A dataclass as restrict reads it, whose `select` makes selections of type `S`. */
export interface RestrictedClass<S extends RestrictedSelection = RestrictedSelection> {
  readonly name: string
  readonly def: DataClassDef
  readonly table: Table
  readonly restrictFunction: RestrictHandler | undefined
  readonly datastore: RestrictedDatastore
  select(rowIds: SelectionRowIds, ordering?: Ordering): S
}

/** A datastore as restrict reads it: the calls' (who acts), and what restrict's answers rest on. */
export interface RestrictedDatastore extends CallDatastore {
  readonly store: Store
  readonly querySource: QuerySource
  /** Whether any dataclass has a `restrict`. */
  readonly restricting: boolean
  /** The clock the moment of an answer that read the clock is told by (restrict-moment.ts). */
  readonly clock: Clock
  readonly deletionWitnesses: {
    noteReader(dc: RestrictedClass, session: Session, rule: AccessRule | undefined): void
  }
  findDataClass(name: string): RestrictedClass | undefined
}
