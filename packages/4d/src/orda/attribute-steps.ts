/**
 * @module 4D code's reads and assignments of attributes as work in steps, for a call in slices
 * (runtime/values/host.ts `READ_STEPS`, `SET_STEPS`; the handles answer through these): a read
 * through a relation has the related dataclass's restrict answered ahead in steps (core's
 * `restrictInSteps`, the answer the read then finds: core's one decision of what is seen), a read
 * of a computed attribute whose getter has steps (a project's) is the getter's call in steps
 * (core's `getterSteps`; through a selection, each member's), an assignment runs its `touched`
 * events in steps (core's `setSteps`). A restrict, a getter or an event that loops then holds no
 * other client. What asks nothing of them runs at once, as anywhere else.
 */
import {
  AnswersAhead,
  currentActor,
  Entity,
  getterSteps,
  hasGetterSteps,
  restrictInSteps,
  withAnswersAhead,
  type AttributeDef,
  type DataClass,
  type EntityDraft,
  type EntitySelection,
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
  // What core's read computes it on: the saved version (a draft's `get` reads its base's).
  const saved = draft === null ? entity.entity : (draft.base as Entity | null)
  if (saved === null || (draft !== null && name in draft.changes)) return undefined
  const work = callSteps(attr, saved)
  return work === undefined ? undefined : getterValue(work, attr, entity.world)
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
  return projecting(selection, attr, read)
}

function* projecting(
  selection: EntitySelection,
  attr: Computed,
  read: () => unknown,
): Work<unknown> {
  const answers = new AnswersAhead()
  for (const entity of selection as Iterable<Entity>) {
    const work = callSteps(attr, entity)
    if (work !== undefined)
      answers.keep(attr.compute!, entity.getKey(), { value: yield* ran(work) })
  }
  return withAnswersAhead(answers, read)
}

type Computed = AttributeDef & { readonly kind: 'calculated' }

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
  asking = true
  try {
    currentActor(saved.dataClass.datastore)?.needRead(saved.dataClass.def, attr)
    return getterSteps(attr.compute, saved)
  } catch (e) {
    throw fromCoreError(e)
  } finally {
    asking = false
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
}

/**
 * `entity.name:=value` in steps (core's `setSteps`: its `touched` events), when the dataclass
 * declares a `touched` event it may run (the entity's, or attribute `name`'s); undefined otherwise
 * (the assignment then runs at once).
 */
export function setAhead(entity: Assigned, name: string, value: unknown): Work<void> | undefined {
  const dc = entity.dataClass
  // The events first: most dataclasses have none, and an assignment asks at every pass.
  const events = dc.datastore.functions.events(dc.name)
  if (events === undefined || !(touches(events.entity) || touches(events.attributes.get(name))))
    return undefined
  // What [SET_MEMBER] gives core's `set`: not a computed attribute (its class's setter).
  const attr = dc.def.attributesByName.get(name)
  if (attr === undefined || attr.kind === 'calculated') return undefined
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
