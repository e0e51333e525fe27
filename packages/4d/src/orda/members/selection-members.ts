/**
 * @module 4D's EntitySelection functions (docs/API/EntitySelectionClass.md) on a selection of 4D
 * code, each core's EntitySelection member of the same name. Core answers null where 4D answers
 * Undefined (`average`, `min`, `max` of no value): 4D code gets Undefined. Values of a Date
 * attribute (`min`, `max`, `distinct`, `extract`) are 4D Dates. `query()` has its steps too (below).
 */
import {
  readInSteps,
  restrictInSteps,
  type AttributeDef,
  type DataClass,
  type Entity,
  type EntitySelection,
} from '@entistore/core'
import { constantValue } from '../../runtime/commands/constants.js'
import { toText } from '../../runtime/convert/conversions.js'
import { Collection } from '../../runtime/values/collection.js'
import { EntityHandle } from '../handles/entity-handle.js'
import {
  coreSteps,
  defineMembers,
  filterParam,
  textParam,
  type MemberImpl,
  type MemberSteps,
} from '../member-kit.js'
import { DK, hasFlag } from '../options.js'
import { formulaQuerySteps, queryOf } from './query-args.js'
import {
  formulaAhead,
  formulaCall,
  plainFormula,
  steppedFormula,
  type EntityFormula,
  type FormulaCall,
} from '../formula-steps.js'
import type { Runtime } from '../../runtime/context/runtime.js'
import { askingGetterSteps, filterPaths, type PathsRead } from '../attribute-steps.js'
import { pathsRead } from '../path-reads.js'
import { orderAhead, pathsAhead, queryAhead } from './reach-ahead.js'
import { SelectionHandle } from '../handles/selection-handle.js'
import type { Work } from '../../runtime/values/work.js'

/** The attribute a path ends on (`employer.name` → Company's `name`), if the model has it. */
function attributeAt(dc: DataClass, path: string): AttributeDef | undefined {
  let attr: AttributeDef | undefined
  let at: DataClass | undefined = dc
  for (const step of path.split('.')) {
    attr = at?.def.attributesByName.get(step)
    if (attr === undefined) return undefined
    at =
      'target' in attr && typeof attr.target === 'string'
        ? dc.datastore.findDataClass(attr.target)
        : undefined
  }
  return attr
}

const typeAt = (self: SelectionHandle, path: string): string | undefined => {
  const attr = attributeAt(self.selection.dataClass as DataClass, path)
  return attr !== undefined && 'type' in attr ? attr.type : undefined
}

/** An aggregate's value as 4D gives it: Undefined for none, a Date for a Date attribute. */
function valueAt(self: SelectionHandle, path: string, v: unknown): unknown {
  return v === null || v === undefined ? undefined : self.world.toFourD(v, typeAt(self, path))
}

/** An entity or a selection parameter as core takes it. */
const operand = (v: unknown): Entity | EntitySelection | null =>
  v instanceof SelectionHandle
    ? v.selection
    : v instanceof EntityHandle
      ? (v.core() as Entity)
      : null

/** `copy(ck shared)`: the flag as the runtime's constant table gives it. */
const CK_SHARED = constantValue('ck shared') as number

const wrap = (self: SelectionHandle, v: unknown): unknown => self.world.toFourD(v)

/** The selection ordered by `formula`'s value for each member (core's `orderByFormula`). */
const orderedBy = (self: SelectionHandle, formula: EntityFormula, sortOrder: unknown): unknown =>
  wrap(
    self,
    self.selection.orderByFormula(formula, { descending: hasFlag(sortOrder, DK.descending) }),
  )

/** `toCollection({options {; begin {; howMany}}})`'s arguments, or with a filter first. */
function collectionArgs(args: readonly unknown[]) {
  const [filter, options, begin, howMany] =
    typeof args[0] === 'number' ? [undefined, ...args] : args
  return {
    filter: filterParam(filter),
    options,
    begin: typeof begin === 'number' ? begin : 0,
    howMany: typeof howMany === 'number' ? howMany : Infinity,
  }
}

/** The paths `extract()` reads: its first argument, or each pair's first (`path; targetPath`). */
const extractPaths = (args: readonly unknown[]): unknown[] =>
  typeof args[1] === 'string'
    ? args.filter((_, i) => i % 2 === 0 && i + 1 < args.length)
    : [args[0]]

const MEMBERS: Readonly<Record<string, MemberImpl<SelectionHandle>>> = {
  first: (self) => wrap(self, self.selection.first()),
  last: (self) => wrap(self, self.selection.last()),
  at(self, [index]) {
    const i = typeof index === 'number' ? Math.trunc(index) : 0
    const length = self.selection.length
    const at = i < 0 ? i + length : i
    return at >= 0 && at < length ? self.member(at) : undefined
  },
  slice: (self, [start, end]) =>
    wrap(self, self.selection.slice(start as number | undefined, end as number | undefined)),
  orderBy(self, [criteria]) {
    const order = self.world.fromFourD(criteria)
    return wrap(self, self.selection.orderBy((order ?? '') as string))
  },
  orderByFormula(self, [formula, sortOrder, settings], rt) {
    const call = formulaCall(self.world, formula, settings)
    if (call === undefined) return wrap(self, self.selection)
    return orderedBy(self, plainFormula(rt, self.world, call), sortOrder)
  },
  query: (self, args, rt) => wrap(self, queryOf(self.world, rt, self.selection, args)),
  and: (self, [other]) => wrap(self, self.selection.and(operand(other))),
  or: (self, [other]) => wrap(self, self.selection.or(operand(other))),
  minus: (self, [other, mode]) =>
    wrap(self, self.selection.minus(operand(other), { keepOrder: hasFlag(mode, DK.keepOrdered) })),
  count: (self, args) => self.selection.count(textParam(args, 1, 'count')),
  sum: (self, args) => self.selection.sum(textParam(args, 1, 'sum')),
  average(self, args) {
    const path = textParam(args, 1, 'average')
    return valueAt(self, path, self.selection.average(path))
  },
  min(self, args) {
    const path = textParam(args, 1, 'min')
    return valueAt(self, path, self.selection.min(path))
  },
  max(self, args) {
    const path = textParam(args, 1, 'max')
    return valueAt(self, path, self.selection.max(path))
  },
  distinct(self, args) {
    const path = textParam(args, 1, 'distinct')
    const options = { diacritical: hasFlag(args[1], DK.diacritical) }
    if (hasFlag(args[1], DK.countValues))
      return wrap(self, self.selection.distinct(path, { ...options, count: true }))
    const type = typeAt(self, path)
    return new Collection(
      self.selection.distinct(path, options).map((v) => self.world.toFourD(v, type)),
    )
  },
  distinctPaths: (self, args) =>
    wrap(self, self.selection.distinctPaths(textParam(args, 1, 'distinctPaths') as never)),
  extract(self, args) {
    const path = textParam(args, 1, 'extract')
    if (typeof args[1] === 'string')
      return wrap(
        self,
        self.selection.extract(path, args[1], ...args.slice(2).map((a) => toText(a))),
      )
    const type = typeAt(self, path)
    const values = self.selection.extract(path, { keepNull: hasFlag(args[1], 1) })
    return new Collection(values.map((v) => (v === undefined ? null : self.world.toFourD(v, type))))
  },
  toCollection(self, args) {
    const { filter, options, begin, howMany } = collectionArgs(args)
    const objects = self.selection.toCollection(
      filter,
      { withKey: hasFlag(options, DK.withPrimaryKey), withStamp: hasFlag(options, DK.withStamp) },
      begin,
      howMany,
    )
    const dc = self.selection.dataClass as DataClass
    return new Collection(objects.map((o) => self.world.recordToFourD(dc, o)))
  },
  drop: (self, [mode]) =>
    wrap(
      self,
      self.selection.drop({ stopOnFirstError: hasFlag(mode, DK.stopDroppingOnFirstError) }),
    ),
  add(self, [added]) {
    self.selection.add(operand(added))
    return self
  },
  copy: (self, [option]) => wrap(self, self.selection.copy({ shared: hasFlag(option, CK_SHARED) })),
  clean: (self) => wrap(self, self.selection.clean()),
  contains: (self, [entity]) => self.selection.contains(operand(entity) as Entity | null),
  isAlterable: (self) => self.selection.isAlterable(),
  isOrdered: (self) => self.selection.isOrdered(),
  getDataClass: (self) => self.world.dataClass(self.selection.dataClass as DataClass),
  refresh: () => undefined,
  selected(self, [other]) {
    const sel = operand(other)
    return wrap(self, self.selection.selected(sel as EntitySelection))
  },
  getRemoteContextAttributes: () => '',
}

/** A member as steps: `ahead` first (restricts answered ahead in steps), then the member. */
/**
 * Member `name` as a read in steps (core's `readInSteps`): its heavy work (a filter over many
 * rows, an aggregate, a getter called for each) stops between its steps; it only reads, so it
 * may run again to find that work's result.
 */
const readInStepsOf =
  (name: string, done: (value: unknown) => unknown = (v) => v): MemberSteps<SelectionHandle> =>
  (self, args, rt) =>
    coreSteps(
      readInSteps(
        dataClassOf(self).datastore,
        () => done(MEMBERS[name]!(self, args, rt)),
        askingGetterSteps,
      ),
    )

// A selection ordered now: core orders one when it is first read, which would be in one piece.
const ordered = (value: unknown): unknown => {
  if (value instanceof SelectionHandle) value.selection.first()
  return value
}

const after = (
  ahead: (self: SelectionHandle, args: unknown[]) => Work<void>,
  name: string,
  then?: MemberSteps<SelectionHandle>,
): MemberSteps<SelectionHandle> =>
  function* (self, args, rt) {
    yield* ahead(self, args)
    const work = then?.(self, args, rt)
    return work === undefined ? MEMBERS[name]!(self, args, rt) : yield* work
  }

/**
 * Member `name` as steps when it reads `paths` (as `how` says) of the entities `entities()`
 * gives (those the member reads): the restricts its relation paths reach answered ahead, the
 * getters with steps they end on called for them, in steps, then the member, which finds them
 * (path-reads.ts `pathsRead`); none (undefined: the member runs at once) when they reach neither.
 */
const readingPaths =
  (
    name: string,
    how: PathsRead,
    paths: (args: unknown[]) => readonly unknown[],
    entities: (self: SelectionHandle, args: unknown[]) => Iterable<Entity | null>,
  ): MemberSteps<SelectionHandle> =>
  (self, args, rt) =>
    pathsRead(
      dataClassOf(self),
      paths(args),
      how,
      () => entities(self, args),
      () => MEMBERS[name]!(self, args, rt),
    )

// The members `toCollection(…; begin; howMany)` reads, as core's `toCollection` cuts them.
function collected(self: SelectionHandle, args: unknown[]): Iterable<Entity | null> {
  const { begin, howMany } = collectionArgs(args)
  const selection = self.selection
  if (!(begin >= 0) || begin >= selection.length) return []
  return selection.window(begin, howMany).members()
}

function* wrapped(self: SelectionHandle, work: Work<unknown>): Work<unknown> {
  return wrap(self, yield* work)
}

function* orderedAhead(
  self: SelectionHandle,
  rt: Runtime,
  call: FormulaCall,
  sortOrder: unknown,
): Work<unknown> {
  const key = yield* formulaAhead(rt, self.world, call, () => self.selection.members())
  return orderedBy(self, key, sortOrder)
}

const dataClassOf = (self: SelectionHandle): DataClass => self.selection.dataClass as DataClass

// An aggregate's path reaches dataclasses through an alias (`employerName`), whose values read
// the relation.
const AGGREGATES = ['count', 'sum', 'average', 'min', 'max', 'distinct'] as const

/**
 * The members that read through relations, as steps: the restricts they ask answered ahead in
 * steps (core's `restrictInSteps` and the `…ReachInSteps`), then the member, which finds those
 * answers. `query()` narrows by the selection's dataclass's restrict and those its text reaches
 * through relations (`employer.name = :1`); `orderBy()` reads those its paths reach, an aggregate
 * those its alias reaches, `extract()` those its paths reach and the relations they end on. A
 * restrict that loops holds no other client when a function's code reads so in a REST call.
 */
export const SELECTION_MEMBERS = defineMembers(SelectionHandle, 'EntitySelection', MEMBERS, {
  query: after(
    function* (self, args) {
      yield* coreSteps(restrictInSteps(dataClassOf(self)))
      yield* queryAhead(self.world, dataClassOf(self), args)
    },
    'query',
    (self, args, rt) => {
      const byFormula = formulaQuerySteps(self.world, rt, self.selection, args)
      return byFormula === undefined
        ? readInStepsOf('query')(self, args, rt)
        : wrapped(self, byFormula)
    },
  ),
  // A formula with steps: its value for each member computed ahead in steps (formula-steps.ts),
  // in the order core calls it, then core's ordering, which reads them.
  orderByFormula(self, [formula, sortOrder, settings], rt) {
    const call = formulaCall(self.world, formula, settings)
    return steppedFormula(call) ? orderedAhead(self, rt, call, sortOrder) : undefined
  },
  orderBy: after(
    (self, [criteria]) => orderAhead(self.world, dataClassOf(self), criteria),
    'orderBy',
    readInStepsOf('orderBy', ordered),
  ),
  ...Object.fromEntries(
    AGGREGATES.map((name) => [
      name,
      after(
        (self, [path]) => pathsAhead(dataClassOf(self), [path], false),
        name,
        readInStepsOf(name),
      ),
    ]),
  ),
  // `extract(path; targetPath; …)` reads every other argument as a path; the getters with steps
  // its paths end on are called for the live members in steps.
  extract: after(
    (self, args) => pathsAhead(dataClassOf(self), extractPaths(args), true),
    'extract',
    readingPaths('extract', 'extract', extractPaths, (self) => self.selection),
  ),
  // A drop's restrict and its `validateDrop` and `dropping` events in steps (core's `dropSteps`),
  // in a transaction level of its own: an event that loops holds no other client.
  *drop(self, [mode]) {
    const stopOnFirstError = hasFlag(mode, DK.stopDroppingOnFirstError)
    return wrap(self, yield* coreSteps(self.selection.dropSteps({ stopOnFirstError })))
  },
  // The getters with steps its filter names, for the members of its window.
  toCollection: readingPaths(
    'toCollection',
    'filter',
    (args) => filterPaths(collectionArgs(args).filter),
    collected,
  ),
})
