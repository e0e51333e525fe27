/**
 * @module 4D's DataStore functions (docs/API/DataStoreClass.md) on `ds`, each core's Datastore
 * member of the same name: transactions (of the calling process: the request's), the global stamp,
 * `flushAndLock`, and the answers a server's own datastore gives. In a call in slices,
 * `validateTransaction()` runs the after-events of the transaction's writes (`afterSave`,
 * `afterDrop`, which wait for its validation) in steps: one that loops holds no other client.
 */
import { writeInSteps } from '@entistore/core'
import { toInteger } from '../../runtime/values/numbers.js'
import { coreSteps, defineMembers } from '../member-kit.js'
import { DatastoreHandle } from '../handles/datastore-handle.js'

const core = (self: DatastoreHandle) => self.world.datastore

export const DATASTORE_MEMBERS = defineMembers(
  DatastoreHandle,
  'DataStore',
  {
    startTransaction: (self) => core(self).startTransaction(),
    validateTransaction: (self) => core(self).validateTransaction(),
    cancelTransaction: (self) => core(self).cancelTransaction(),
    transactionLevel: (self) => core(self).transactionLevel(),
    getInfo: (self) => self.world.toFourD(core(self).getInfo()),
    getGlobalStamp: (self) => core(self).getGlobalStamp(),
    setGlobalStamp: (self, [stamp]) => core(self).setGlobalStamp(toInteger(Number(stamp))),
    flushAndLock: (self) => core(self).flushAndLock(),
    unlock: (self) => core(self).unlock(),
    locked: (self) => core(self).locked(),
    makeSelectionsAlterable: (self) => core(self).makeSelectionsAlterable(),
    encryptionStatus: (self) => self.world.toFourD(core(self).encryptionStatus()),
    isAdminProtected: (self) => core(self).isAdminProtected(),
    setAdminProtection: (self, [status]) => core(self).setAdminProtection(status === true),
    getAllRemoteContexts: (self) => self.world.toFourD(core(self).getAllRemoteContexts()),
    clearAllRemoteContexts: (self) => core(self).clearAllRemoteContexts(),
  },
  {
    // The validation, in one piece; then the after-events of what it committed, in steps.
    *validateTransaction(self) {
      yield* coreSteps(writeInSteps(() => core(self).validateTransaction()))
    },
  },
)
