/**
 * @module 4D's DataClass functions (docs/API/DataClassClass.md) on `ds.Employee`, each core's
 * DataClass member of the same name; `new()` gives a new entity (core's draft) to fill and save.
 */
import { fromCollectionSteps, newInSteps, readInSteps, restrictInSteps } from '@entistore/core'
import { coreSteps, defineMembers, type MemberImpl, type MemberSteps } from '../member-kit.js'
import { DataClassHandle } from '../handles/data-class-handle.js'
import { EntityHandle } from '../handles/entity-handle.js'
import { DK, hasFlag } from '../options.js'
import { formulaQuerySteps, queryOf } from './query-args.js'
import { queryAhead } from './reach-ahead.js'
import { askingGetterSteps } from '../attribute-steps.js'
import type { Work } from '../../runtime/values/work.js'

const MEMBERS: Readonly<Record<string, MemberImpl<DataClassHandle>>> = {
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
}

/**
 * A member that reads the dataclass, as steps: its restrict answered ahead in steps (core's
 * `restrictInSteps`), and those `reaches` names (the dataclasses a query's text reaches through
 * relations), then the member, which finds those answers; with `reaches`, a query, the member
 * itself as a read in steps (core's `readInSteps`: a filter over many rows, a getter it calls for
 * each, stop between their steps). A restrict or a getter that loops holds no other client when
 * a function's code reads in a REST call.
 */
const readingSteps = (
  member: MemberImpl<DataClassHandle>,
  reaches?: (self: DataClassHandle, args: unknown[]) => Work<void>,
): MemberSteps<DataClassHandle> =>
  function* (self, args, rt) {
    yield* coreSteps(restrictInSteps(self.dataClass))
    if (reaches === undefined) return member(self, args, rt)
    yield* reaches(self, args)
    const read = () => member(self, args, rt)
    return yield* coreSteps(readInSteps(self.dataClass.datastore, read, askingGetterSteps))
  }

const READING = ['all', 'get', 'getCount'] as const

const byText = readingSteps(MEMBERS.query!, (self, args) =>
  queryAhead(self.world, self.dataClass, args),
)

function* afterRestrict(self: DataClassHandle, work: Work<unknown>): Work<unknown> {
  yield* coreSteps(restrictInSteps(self.dataClass))
  return self.world.toFourD(yield* work)
}

export const DATA_CLASS_MEMBERS = defineMembers(DataClassHandle, 'DataClass', MEMBERS, {
  ...Object.fromEntries(READING.map((name) => [name, readingSteps(MEMBERS[name]!)])),
  // By a formula with steps: its value for each entity core tests computed ahead in steps
  // (formula-steps.ts), after the restrict, then core's query, which reads them.
  query: (self, args, rt) => {
    const byFormula = formulaQuerySteps(self.world, rt, self.dataClass, args)
    return byFormula === undefined ? byText(self, args, rt) : afterRestrict(self, byFormula)
  },
  // Each object's save, its events in steps (core's `fromCollectionSteps`), the restrict its
  // lookups by key ask answered ahead: an event that loops holds no other client.
  *fromCollection(self, [objects]) {
    yield* coreSteps(restrictInSteps(self.dataClass))
    const list = self.world.fromFourD(objects)
    const saved = yield* coreSteps(
      fromCollectionSteps(self.dataClass, Array.isArray(list) ? list : []),
    )
    return self.world.toFourD(saved)
  },
  // The new entity's `Class constructor` in steps (core's `newInSteps`): one that loops holds no
  // other client.
  *new(self) {
    return new EntityHandle(self.world, null, yield* coreSteps(newInSteps(self.dataClass)))
  },
})
