/**
 * @module 4D's DataClass functions (docs/API/DataClassClass.md) on `ds.Employee`, each core's
 * DataClass member of the same name; `new()` gives a new entity (core's draft) to fill and save.
 */
import { defineMembers } from '../member-kit.js'
import { DataClassHandle } from '../handles/data-class-handle.js'
import { EntityHandle } from '../handles/entity-handle.js'
import { DK, hasFlag } from '../options.js'
import { queryOf } from './query-args.js'

export const DATA_CLASS_MEMBERS = defineMembers(DataClassHandle, 'DataClass', {
  all: (self) => self.world.toFourD(self.dataClass.all()),
  get: (self, [key]) => self.world.toFourD(self.dataClass.get(self.world.fromFourD(key))),
  getCount: (self) => self.dataClass.getCount(),
  new: (self) => new EntityHandle(self.world, null, self.dataClass.new()),
  newSelection: (self, [mode]) =>
    self.world.toFourD(self.dataClass.newSelection({ keepOrder: hasFlag(mode, DK.keepOrdered) })),
  query: (self, args, rt) => self.world.toFourD(queryOf(self.world, rt, self.dataClass, args)),
  fromCollection(self, [objects]) {
    const list = self.world.fromFourD(objects)
    return self.world.toFourD(self.dataClass.fromCollection(Array.isArray(list) ? list : []))
  },
  getInfo: (self) => self.world.toFourD(self.dataClass.getInfo()),
  getDataStore: (self) => self.world.ds,
  clearRemoteCache: (self) => self.dataClass.clearRemoteCache(),
  getRemoteCache: () => null,
  setRemoteCacheSettings: () => undefined,
})
