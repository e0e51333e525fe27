/**
 * @module 4D code's reads and assignments of attributes as work in steps, for a call in slices
 * (runtime/values/host.ts `READ_STEPS`, `SET_STEPS`; the handles answer through these): a read
 * through a relation has the related dataclass's restrict answered ahead in steps (core's
 * `restrictInSteps`, the answer the read then finds: core's one decision of what is seen), an
 * assignment runs its `touched` events in steps (core's `setSteps`). A restrict or an event that
 * loops then holds no other client. What asks nothing of them runs at once, as anywhere else.
 */
import {
  Entity,
  restrictInSteps,
  type AttributeDef,
  type DataClass,
  type EntityDraft,
  type Work as CoreWork,
} from '@entistore/core'
import type { Work } from '../runtime/values/work.js'
import { fromCoreError } from './core-errors.js'
import { coreSteps } from './member-kit.js'

/**
 * The restrict a read of relation `name` of `dc` asks, made ahead in steps: undefined when the
 * attribute is no relation, its dataclass's restrict does not run in steps or has its answer
 * kept, or `asks(attr)` says this read asks nothing (a relation left empty).
 */
export function relationAhead(
  dc: DataClass,
  name: string,
  asks: (attr: Relation) => boolean,
): Work<void> | undefined {
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
function started(work: CoreWork<void>): Work<void> | undefined {
  try {
    if (work.next().done === true) return undefined
  } catch (e) {
    throw fromCoreError(e)
  }
  return rest(coreSteps(work))
}

function* rest(work: Work<void>): Work<void> {
  yield
  try {
    yield* work
  } catch (e) {
    throw fromCoreError(e)
  }
}
