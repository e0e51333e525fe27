/**
 * @module What a call needs of its datastore: its sessions and their one-time tokens, the roles
 * file, the functions' singletons, the entity sets' quotas, the process's lock owner and open
 * transaction. Named by these members, which the Datastore has, and not by its class: the
 * Datastore and the rooms below it run the calls, which would otherwise name it back. What gives
 * a call's datastore as the Datastore (`FunctionCall`, `currentCall()`) is in current-call/, above
 * the Datastore.
 */
import type { FunctionRegistry } from '../../functions/registry.js'
import type { LockOwner } from '../../locks/lock-table.js'
import type { Roles } from '../../roles/roles.js'
import type { SessionStoreApi } from '../../sessions/session-api.js'
import type { SessionTokens } from '../../sessions/session-tokens.js'
import type { Transaction } from '../../txn/transaction.js'
import type { QuotaSource } from './session-quotas.js'

export interface CallDatastore {
  readonly sessions: SessionStoreApi
  readonly sessionTokens: SessionTokens
  readonly roles: Roles | undefined
  readonly functions: FunctionRegistry
  readonly entitySets: QuotaSource
  /** Who writes and locks belong to outside any session. */
  readonly processOwner: LockOwner
  readonly processes: { openTransaction(): Transaction | undefined }
}
