/**
 * @module 4D code's reads and assignments of attributes as work in steps, for a call in slices
 * (runtime/values/host.ts `READ_STEPS`, `SET_STEPS`; the handles answer through these): a read
 * through a relation has the related dataclass's restrict answered ahead in steps (core's
 * `restrictInSteps`, the answer the read then finds: core's one decision of what is seen), a read
 * of a computed attribute whose getter has steps (a project's) is the getter's call in steps
 * (core's `getterSteps`; through a selection, each member's), an assignment runs its `touched`
 * events in steps (core's `setSteps`). A restrict, a getter or an event that loops then holds no
 * other client; an assignment of a computed attribute is its class's setter's call in steps
 * (`Function set`). What asks nothing of them runs at once, as anywhere else.
 */
import {
  AnswersAhead,
  currentActor,
  Entity,
  EntitySelection,
  getterSteps,
  hasGetterSteps,
  pathReachInSteps,
  restrictInSteps,
  withAnswersAhead,
  type AttributeDef,
  type DataClass,
  type EntityDraft,
  type Work as CoreWork,
} from '@entistore/core'
import { MISS } from '../runtime/values/host.js'
import type { Work } from '../runtime/values/work.js'
import { fromCoreError } from './core-errors.js'
import { coreSteps } from './member-kit.js'
import type { World } from './world-shape.js'

/**
 * The restrict a read of relation `name` of `dc` asks, made ahead in steps: undefined when the
 * attribute is no relation, its dataclass's restrict does not run in steps or has its answer
 * kept, or `asks(attr)` says this read asks nothing (a relation left empty).
 */
export function relationAhead(
  dc: DataClass,
  name: string,
  asks: (attr: Relation) => boolean,
): Work<typeof MISS> | undefined {
  if (!dc.datastore.restricting) return undefined
  const attr = dc.def.attributesByName.get(name)
  if (attr === undefined || (attr.kind !== 'relatedEntity' && attr.kind !== 'relatedEntities'))
    return undefined
  const target = dc.datastore.dataClass(attr.target) as DataClass
  if (target.restrictFunction?.steps === undefined || !asks(attr)) return undefined
  return started(restrictInSteps(target))
}

type Relation = AttributeDef & { readonly kind: 'relatedEntity' | 'relatedEntities' }

/**
 * Whether reading `attr` of an entity (its saved version, or the draft of its change) asks its
 * dataclass's restrict, as core's read and the conversion of its value do: a relation to many
 * always (its selection is narrowed); a relation to one when it names an entity by key, not when
 * it is empty or set to an Entity; a new entity has none.
 */
export function entityAsks(
  entity: Entity | null,
  draft: EntityDraft | null,
  attr: Relation,
): boolean {
  if (draft !== null && attr.kind === 'relatedEntity' && attr.name in draft.changes) {
    const pending = (draft.changes as Record<string, unknown>)[attr.name]
    return pending !== null && pending !== undefined && !(pending instanceof Entity)
  }
  const saved = draft === null ? entity : (draft.base as Entity | null)
  if (saved === null) return false
  if (attr.kind === 'relatedEntities') return true
  const key = saved.values[attr.foreignKey]
  return key !== null && key !== undefined
}

/** An entity as a read of 4D code reaches it (handles/entity-handle.ts). */
interface Read {
  readonly entity: Entity | null
  readonly draft: EntityDraft | null
  readonly world: Pick<World, 'attributeToFourD'>
}

// Whether `getterAhead` is asking a getter for its steps now (`getterStepsAsked`).
let asking = false

/**
 * Whether a read of 4D code in steps is asking a getter for its steps form: a project's getter
 * gives none while 4D code runs (project/computed-attributes.ts: core's loops cannot stop inside
 * it there), but gives it to this read, whose generator goes into it.
 */
export const getterStepsAsked = (): boolean => asking

/**
 * Runs `fn` as a read of 4D code in steps: the getters core calls in it give their steps form
 * (core's `readInSteps` of a query or an aggregate that 4D code in steps makes, whose rows core
 * runs alone and goes into).
 */
export function askingGetterSteps<T>(fn: () => T): T {
  const was = asking
  asking = true
  try {
    return fn()
  } finally {
    asking = was
  }
}

/**
 * `entity.name` in steps when `name` is a computed attribute whose getter has steps (a project's):
 * the getter's call (core's `getterSteps`), which the generator of the code reading it goes into,
 * so that a getter that loops stops inside its loop, and whose value is the read's (the getter is
 * not called again). The session's permission is asked first, as core's read asks it. Undefined
 * for any other attribute, or a draft's change of it: the read then runs at once.
 */
export function getterAhead(entity: Read, name: string): Work<unknown> | undefined {
  const draft = entity.draft
  const attr = computedWithSteps((draft ?? entity.entity!).dataClass, name)
  if (attr === undefined) return undefined
  const saved = computedOn(draft ?? entity.entity!, name)
  if (saved === null) return undefined
  const work = callSteps(attr, saved)
  return work === undefined ? undefined : getterValue(work, attr, entity.world)
}

/**
 * The entity a read of computed attribute `name` of `read` (an entity, or the draft of its change)
 * computes it on, as core's read does: the saved version (a draft's `get` reads its base's); null
 * for a new entity, or a draft that changed it (the read then runs at once).
 */
function computedOn(read: Entity | EntityDraft, name: string): Entity | null {
  if (read instanceof Entity) return read
  return name in read.changes ? null : (read.base as Entity | null)
}

/**
 * `entity.name` in steps when `name` is an alias (`Alias taskHeavy task.heavy`): the restricts of
 * the dataclasses its path reaches answered ahead in steps (core's `pathReachInSteps`), then the
 * getters with steps it ends on called in steps (`gettersOfPaths`), then `read()`, the plain
 * read, which finds both. Undefined for any other attribute, or a draft's (read at once).
 */
export function aliasAhead(
  entity: Read,
  name: string,
  read: () => unknown,
): Work<unknown> | undefined {
  if (entity.draft !== null) return undefined
  const saved = entity.entity!
  const attr = saved.dataClass.def.attributesByName.get(name)
  if (attr?.kind !== 'alias') return undefined
  return aliasRead(saved.dataClass as DataClass, attr.path.join('.'), saved, read)
}

function* aliasRead(
  dc: DataClass,
  path: string,
  saved: Entity,
  read: () => unknown,
): Work<unknown> {
  yield* coreSteps(pathReachInSteps(dc, path, true))
  const work = gettersOfPaths(dc, [path], 'filter', () => [saved], read)
  return work === undefined ? read() : yield* work
}

/**
 * `selection.name` in steps when `name` is a computed attribute whose getter has steps: each live
 * member's getter call in steps, in the selection's order (the reading code's generator going
 * into each), then `read()`, the plain read of `selection.name`, which finds their values (core's
 * `withAnswersAhead`) rather than calling the getters again: the same collection, built by the
 * same code. Undefined for any other attribute, or an empty selection.
 */
export function gettersOfSelection(
  selection: EntitySelection,
  name: string,
  read: () => unknown,
): Work<unknown> | undefined {
  const attr = computedWithSteps(selection.dataClass, name)
  if (attr === undefined || selection.length === 0) return undefined
  return answering(membersCalls(selection as Iterable<Entity>, attr), read)
}

function* membersCalls(members: Iterable<Entity>, attr: Computed): Iterable<Call> {
  for (const entity of members) yield [attr, entity]
}

/**
 * How a member reads its paths: a filter of `toObject()`/`toCollection()` (a relation to many
 * goes on to each of its entities, and a computed attribute is read for a path that goes on into
 * its value: `heavy.level`), or `extract()`'s path (through relations to one only, and a computed
 * attribute only at its end: core's `validPath`).
 */
export type PathsRead = 'filter' | 'extract'

/**
 * A member that reads `paths` of `entities` of `dc` (`toCollection("ID, heavy")`,
 * `toObject(…)`, `extract("employer.heavy")`) in steps, when a path ends on a computed attribute
 * whose getter has steps: each of those getters' calls for the entities the member reads, in
 * steps, entity by entity in order, then `read()`, the plain member, which finds their values
 * (core's `withAnswersAhead`) rather than calling the getters again. `entities` are exactly those
 * the member reads (its window, its live members, a null skipped). Undefined when no path reaches
 * such a getter: the member then runs at once, its entities never listed.
 */
export function gettersOfPaths<T>(
  dc: DataClass,
  paths: readonly unknown[],
  how: PathsRead,
  entities: () => Iterable<Entity | EntityDraft | null>,
  read: () => T,
): Work<T> | undefined {
  const reached = getterPaths(dc, paths, how)
  return reached.length === 0 ? undefined : answering(pathsCalls(entities(), reached), read)
}

/** The paths of a filter of `toObject()`/`toCollection()` (member-kit.ts `filterParam`'s). */
export const filterPaths = (filter: string | readonly string[] | undefined): readonly string[] =>
  typeof filter === 'string' ? filter.split(',') : (filter ?? [])

/** A path to a computed attribute with steps: the relations it goes through, then the attribute. */
interface GetterPath {
  readonly through: readonly string[]
  readonly attr: Computed
}

// The getter paths of `paths` (the texts among them) of `dc`, as `how` reads them.
function getterPaths(dc: DataClass, paths: readonly unknown[], how: PathsRead): GetterPath[] {
  const out: GetterPath[] = []
  if (!anyGetterSteps(dc)) return out
  // A filter's names are trimmed (core's `filterOf`), `extract()`'s path is taken as it is.
  const trim = how === 'filter' ? (step: string) => step.trim() : (step: string) => step
  for (const path of paths) {
    if (typeof path !== 'string') continue
    // Most paths name an attribute: only a computed one is looked at further.
    if (!path.includes('.')) {
      const attr = computedWithSteps(dc, trim(path))
      if (attr !== undefined) out.push({ through: [], attr })
      continue
    }
    const steps = path.split('.').map(trim)
    let at: DataClass = dc
    for (let i = 0; i < steps.length; i++) {
      const attr = at.def.attributesByName.get(steps[i]!)
      const last = i === steps.length - 1
      if (attr?.kind === 'calculated') {
        const computed = computedWithSteps(at, attr.name)
        if (computed !== undefined && (last || how === 'filter'))
          out.push({ through: steps.slice(0, i), attr: computed })
        break
      }
      // A relation gone through to a path of its dataclass (`employer.*` reads no computed one).
      const through =
        attr?.kind === 'relatedEntity' || (attr?.kind === 'relatedEntities' && how === 'filter')
      if (!through || last || steps[i + 1] === '*') break
      at = dc.datastore.dataClass((attr as Relation).target) as DataClass
    }
  }
  return out
}

// The calls the paths make, entity by entity, each entity's in the paths' order.
function* pathsCalls(
  entities: Iterable<Entity | EntityDraft | null>,
  paths: readonly GetterPath[],
): Iterable<Call> {
  for (const entity of entities) {
    if (entity === null) continue
    for (const { through, attr } of paths)
      for (const at of reachedBy(entity, through, 0)) {
        const on = computedOn(at, attr.name)
        if (on !== null) yield [attr, on]
      }
  }
}

// The entities `through`'s relations lead to from `from`, read as the member reads them (the
// session asked, the related dataclass's restrict applied).
function* reachedBy(
  from: Entity | EntityDraft,
  through: readonly string[],
  i: number,
): Iterable<Entity | EntityDraft> {
  if (i === through.length) {
    yield from
    return
  }
  let value: unknown
  try {
    value = from.get(through[i]! as never)
  } catch (e) {
    throw fromCoreError(e)
  }
  if (value instanceof Entity) yield* reachedBy(value, through, i + 1)
  else if (value instanceof EntitySelection)
    for (const e of value as Iterable<Entity>) yield* reachedBy(e, through, i + 1)
}

/** One call of a getter with steps a plain read makes: its attribute, and the entity. */
type Call = readonly [attr: Computed, entity: Entity]

/**
 * The calls `calls` gives in steps, each once (the same getter of the same entity is answered
 * once), their values kept; then `read()` where the getters find them (core's
 * `withAnswersAhead`). What a call throws is thrown here, as the plain read would have thrown it.
 */
function* answering<T>(calls: Iterable<Call>, read: () => T): Work<T> {
  const answers = new AnswersAhead()
  for (const [attr, entity] of calls) {
    const key = entity.getKey()
    if (answers.has(attr.compute!, key)) continue
    const work = callSteps(attr, entity)
    if (work !== undefined) answers.keep(attr.compute!, key, { value: yield* ran(work) })
  }
  return withAnswersAhead(answers, read)
}

type Computed = AttributeDef & { readonly kind: 'calculated' }

// Whether each schema has a computed attribute whose getter has steps (a 4D project's getter):
// a member that names attributes of another's looks at none of them. A schema's attributes and
// their getters are made once, with it.
const schemaSteps = new WeakMap<object, boolean>()

function anyGetterSteps(dc: DataClass): boolean {
  const schema = dc.datastore.schema
  let any = schemaSteps.get(schema)
  if (any === undefined) {
    any = schema.dataClasses.some((d) =>
      d.attributes.some((a) => a.kind === 'calculated' && hasGetterSteps(a.compute)),
    )
    schemaSteps.set(schema, any)
  }
  return any
}

// Attribute `name` of `dc` when it is a computed attribute whose getter has steps.
function computedWithSteps(dc: DataClass, name: string): Computed | undefined {
  const attr = dc.def.attributesByName.get(name)
  return attr !== undefined && attr.kind === 'calculated' && hasGetterSteps(attr.compute)
    ? attr
    : undefined
}

/**
 * The call of `attr`'s getter for `saved` in steps (core's `getterSteps`), the session's
 * permission asked first, as core's read asks it.
 */
function callSteps(attr: Computed, saved: Entity): CoreWork<unknown> | undefined {
  try {
    return askingGetterSteps(() => {
      currentActor(saved.dataClass.datastore)?.needRead(saved.dataClass.def, attr)
      return getterSteps(attr.compute, saved)
    })
  } catch (e) {
    throw fromCoreError(e)
  }
}

// A getter's call in steps run, its value as core's getter returned it.
function* ran(work: CoreWork<unknown>): Work<unknown> {
  try {
    return yield* coreSteps(work)
  } catch (e) {
    throw fromCoreError(e)
  }
}

// The value of a getter's call in steps, as core's read gives it (null for none) in 4D.
function* getterValue(
  work: CoreWork<unknown>,
  attr: AttributeDef,
  world: Read['world'],
): Work<unknown> {
  return world.attributeToFourD(attr, (yield* ran(work)) ?? null)
}

/** An entity as an assignment of 4D code reaches it (handles/entity-handle.ts). */
interface Assigned {
  readonly dataClass: DataClass
  /** The draft changes go to, made at the first change. */
  edit(): EntityDraft
  readonly world: { fromFourD(value: unknown): unknown }
  /** The call of its class's `Function set name` in steps, if it has one with steps (handle.ts). */
  setterSteps(name: string, value: unknown): Work<void> | undefined
}

/**
 * `entity.name:=value` in steps: when `name` is a computed attribute (or no attribute) whose
 * class has a `Function set name` with steps, the setter's call (handle.ts `classSetterSteps`),
 * which the assigning code's generator goes into, so that a setter that loops stops inside its
 * loop; its own assignments (`This.firstName:=…`) run their `touched` events in steps in turn.
 * Else core's `setSteps` (its `touched` events), when the dataclass declares a `touched` event it
 * may run (the entity's, or attribute `name`'s). Undefined otherwise: the assignment runs at once.
 */
export function setAhead(entity: Assigned, name: string, value: unknown): Work<void> | undefined {
  const dc = entity.dataClass
  // What [SET_MEMBER] runs for a computed attribute, or a name that is no attribute: the class's
  // setter (without one, core's `set`, which has no code of the project's to run in steps).
  const attr = dc.def.attributesByName.get(name)
  if (attr === undefined || attr.kind === 'calculated') return entity.setterSteps(name, value)
  // Most dataclasses have no events, and an assignment asks at every pass.
  const events = dc.datastore.functions.events(dc.name)
  if (events === undefined || !(touches(events.entity) || touches(events.attributes.get(name))))
    return undefined
  return setting(entity, name, value)
}

function* setting(entity: Assigned, name: string, value: unknown): Work<void> {
  try {
    const draft = entity.edit()
    yield* coreSteps(draft.setSteps(name as never, entity.world.fromFourD(value) as never))
  } catch (e) {
    throw fromCoreError(e)
  }
}

const touches = (handlers: object | undefined): boolean =>
  handlers !== undefined && Object.hasOwn(handlers, 'touched')

/**
 * `work` begun: undefined when it ended in its first step (a restrict whose answer is kept: no
 * generator of 4D code made for a read that needs none), else the rest of it, the stop met first.
 */
function started(work: CoreWork<void>): Work<typeof MISS> | undefined {
  try {
    if (work.next().done === true) return undefined
  } catch (e) {
    throw fromCoreError(e)
  }
  return rest(coreSteps(work))
}

// The rest of a relation's work, after which the read is made (MISS: host.ts `READ_STEPS`). Closed
// at its stop before the work (its driver closed: a request gone), it closes the work, so that a
// `Use` the restrict is inside lets go of its lock at once.
function* rest(work: Work<void>): Work<typeof MISS> {
  let going = false
  try {
    yield
    going = true
    yield* work
  } catch (e) {
    throw fromCoreError(e)
  } finally {
    if (!going) work.return(undefined)
  }
  return MISS
}
