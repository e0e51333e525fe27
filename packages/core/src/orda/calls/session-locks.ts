/**
 * @module The datastore's lock table, tied to what a lock lives by: a session's locks last as long
 * as it (released when it closes, never honoured once it has expired even if no request has swept
 * it yet: the table asks whether the holder is live), follow it when it is renewed (a login gives
 * it a new id), and an entity's lock goes when a commit deletes the entity; and a session as the
 * owner of its locks.
 */
import type { Clock } from '../../clock/clock.js'
import { LockTable, type LockOwner } from '../../locks/lock-table.js'
import type { Session, SessionStoreApi } from '../../sessions/session-api.js'
import type { Store } from '../../store/store.js'

export function sessionLocks(clock: Clock, sessions: SessionStoreApi, store: Store): LockTable {
  const locks = new LockTable(
    clock,
    (owner) => owner.kind !== 'session' || sessions.peek(owner.id) !== undefined,
  )
  sessions.onClose((session) => locks.releaseSession(session.id))
  sessions.onRenew((session, previousId) => locks.renameSession(previousId, session.id))
  // A load deletes nothing: its rows need not be listed here.
  store.onCommit(
    (changes) => {
      for (const c of changes) if (c.op === 'delete') locks.drop(c.table.def.name, c.before.key)
    },
    { loadRows: false },
  )
  return locks
}

/**
 * A session as the owner of its writes and locks: its id read at each use (a login renews it),
 * with its client (`info`) for a refused lock's `lockInfo`.
 */
export function sessionLockOwner(session: Session, info?: LockOwner['info']): LockOwner {
  return {
    get id() {
      return session.id
    },
    kind: 'session',
    ...(info ? { info } : {}),
  }
}
