/**
 * @module What the executor runs with (the context of one query: tables, access, budget, the
 * restrictions in force) and what it returns (the rows found and, when asked, the path it took).
 */
import type { Clock } from '../clock/clock.js'
import type { DataClassDef } from '../schema/definitions.js'
import type { Table } from '../store/table.js'
import type { RowIds } from '../sets/row-ids.js'
import type { PlanNode } from './plan.js'
import type { AllowedRows } from './visibility.js'
import type { EntityOf } from './predicate.js'

export interface ExecContext {
  readonly tableOf: (dc: DataClassDef) => Table
  /** The Entity view of a record of `dc`, for calculated attributes. */
  readonly entityOf: (dc: DataClassDef) => EntityOf
  readonly clock: Clock
  /** Record each step's rows and time (4D's query path). Without it, an AND runs in one pass. */
  readonly trace: boolean
  /**
   * The rows of a dataclass the acting session may see (its `restrict`); undefined when no
   * dataclass of the datastore has a `restrict`, and then nothing is narrowed or asked.
   */
  readonly allowed?: AllowedRows
  /**
   * Whether the tables may have changed since the plan was made (work run in slices, with writes
   * between them): the index positions the planner found are then searched again.
   */
  readonly stale?: () => boolean
  /**
   * Set when an index range was read in steps (positions that writes move between them): its rows
   * cannot then be refreshed from the changed rows alone, only found again.
   */
  readonly positions?: { walked: boolean }
}

/** What one plan node did: 4D's query path step. */
export interface PathStep {
  readonly node: PlanNode
  readonly time: number
  readonly found: number
  readonly children: readonly PathStep[]
}

export interface Execution {
  /** Row ids: an Int32Array where there may be millions (an index range, a scan's parts). */
  readonly rows: RowIds
  readonly step: PathStep
  /** Whether an index range was read in steps (ExecContext.positions). */
  readonly walked?: boolean
}
