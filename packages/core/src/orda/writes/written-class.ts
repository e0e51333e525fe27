/**
 * @module What the writes (create, update, drop, lock, their events and transactions) need of a
 * dataclass, its entities and its datastore: named by these members, which DataClass, Entity and
 * Datastore have, and not by their classes, which write through these files and would otherwise
 * be named back by them. The public result of `lock({ reload: true })`, ReloadedLock, which names
 * the Entity, is with the Entity (objects/entity.ts).
 */
import type { LockTable } from '../../locks/lock-table.js'
import type { EntityRecord } from '../../store/entity-record.js'
import type { Assignments, WriteCheck } from '../../txn/transaction.js'
import type { Work } from '../../query/slices.js'
import type { Processes } from '../processes.js'
import type { RequestLog } from '../request-log.js'
import type { RestrictedClass, RestrictedDatastore } from '../restrict/restricted-class.js'

/**
 * An entity as the writes read it: a stored version (a table keeps each as its Entity, see
 * data-class.ts) with its dataclass.
 */
export interface WrittenEntity extends EntityRecord {
  readonly dataClass: WrittenClass
}

/** A datastore as the writes use it: restrict's, with its locks, processes and request log. */
export interface WriteDatastore extends RestrictedDatastore {
  readonly locks: LockTable
  readonly processes: Processes
  readonly requestLog: RequestLog | undefined
  dataClass(name: string): RestrictedClass
}

/** A dataclass as the writes use it: restrict's, with its datastore's and the drafts it makes. */
export interface WrittenClass extends RestrictedClass {
  readonly datastore: WriteDatastore
  /**
   * A draft of `base` with `values` (events run through it): saved as it saves. Made `later`, its
   * events and values wait for `madeSteps(values)`, which runs them in steps.
   */
  draft(base: WrittenEntity | null, values?: Assignments, later?: boolean): WrittenDraft
}

/** A draft as the writes use it (entity-draft.ts). */
export interface WrittenDraft {
  saveOrFail(): WrittenEntity
  saveChecked(check: WriteCheck | undefined): WrittenEntity
  prepareSave(check: WriteCheck | undefined): Work<() => WrittenEntity>
  madeSteps(values?: Assignments): Work<WrittenDraft>
}
