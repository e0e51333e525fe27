/**
 * @module The entry a transaction keeps for each entity it touches. Its own file, below both the
 * transaction that stages entries and the savepoints that copy and recheck them, so that neither
 * imports the other for it.
 */
import type { Patch } from 'immer'
import type { EntityRecord } from '../store/entity-record.js'

/** One entity touched by a transaction: its committed version (if any) and its staged one (null: deleted). */
export interface Staged {
  readonly base: EntityRecord | undefined
  current: EntityRecord | null
  /** What changed since `base`, for commit listeners (immer patches, paths from the values object). */
  patches: Patch[]
}
