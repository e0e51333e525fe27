/**
 * @module The getters of a function's result, made ahead before its reply is written: an entity
 * or a selection a function returns is answered as a read of it (functions.ts `functionReply`),
 * written after the call has returned, outside any read's slices, where a getter with steps (a 4D
 * project's) that loops would be called at once, holding every other client. Their calls are made
 * first in slices of their own, a turn between two (core's `gettersAheadInTurns`), and the reply
 * is made where the writing finds them (serialize/getters-ahead.ts `answersAhead`).
 *
 * The entities are those the reply writes: the entity, or the selection's page as `readSelection`
 * takes it (`$skip`, `$top`, what the session's restrict shows), under the projection the request
 * names; or, for any other result (`{"result": {"task": $e}}`, `[$e1; $e2]`), those of the entities
 * and selections it holds, as call/result.ts writes them (each whole, a selection's first page).
 * A call this does not foresee is made where the reply reads it, as before.
 */
import {
  Entity,
  EntityDraft,
  EntitySelection,
  gettersAheadInTurns,
  OutgoingMessage,
  restrictedSelection,
  withAnswersAhead,
  type AnswersAhead,
  type DataClass,
  type GetterCall,
} from '@entistore/core'
import { replyCalls } from '../serialize/getters-ahead.js'
import { parseProjection } from '../serialize/projection.js'
import { check, type RouteContext } from './context.js'

/**
 * `reply(value)`, made where the getters of `value`'s entities find their answers made ahead:
 * at once when there are none to make or they end within a slice, else once they are made.
 */
export function withResultAhead<R>(
  ctx: RouteContext,
  value: unknown,
  reply: (value: unknown) => R,
): R | Promise<R> {
  const answers = resultAnswers(ctx, value)
  if (answers === undefined) return reply(value)
  const within = (made: AnswersAhead): R => withAnswersAhead(made, () => reply(value))
  return answers instanceof Promise ? answers.then(within) : within(answers)
}

function resultAnswers(
  ctx: RouteContext,
  value: unknown,
): AnswersAhead | Promise<AnswersAhead> | undefined {
  const entity = value instanceof EntityDraft ? value.unsavedVersion() : value
  if (entity instanceof Entity || entity instanceof EntitySelection) return readAnswers(ctx, entity)
  // An OutgoingMessage is sent as it is: nothing of it is written as JSON.
  if (typeof value !== 'object' || value === null || OutgoingMessage.is(value)) return undefined
  if (!anyStepped(ctx)) return undefined
  const held = heldIn(value)
  return held.length === 0 ? undefined : gettersAheadInTurns(heldCalls(ctx, held), ctx.ds.clock)
}

// A result answered as a read of it: the entity, or the selection's page, under the projection.
function readAnswers(
  ctx: RouteContext,
  entity: Entity | EntitySelection,
): AnswersAhead | Promise<AnswersAhead> | undefined {
  const dc = entity.dataClass
  let projection
  try {
    projection = parseProjection(
      ctx.ds.schema,
      dc.def,
      ctx.params.attributes,
      ctx.params.expand,
      check(ctx),
    )
  } catch {
    // A projection the request names wrong: the reply refuses it, with its own error.
    return undefined
  }
  const entities = (): Iterable<Entity | null> => {
    if (entity instanceof Entity) return [entity]
    const selection = restrictedSelection(entity as EntitySelection)
    return selection.window(ctx.params.skip, ctx.params.top ?? dc.def.defaultTopSize)
  }
  const calls = replyCalls(ctx.writer, dc, projection, entities)
  return calls === undefined ? undefined : gettersAheadInTurns(calls(), ctx.ds.clock)
}

// Whether a reply may write any getter with steps for the session: none (no 4D project, or
// none of its getters shown), and a result is not walked at all.
function anyStepped(ctx: RouteContext): boolean {
  return ctx.ds.schema.dataClasses.some(
    (def) => ctx.writer.gettersWithSteps(ctx.ds.dataClass(def.name) as DataClass).length > 0,
  )
}

// How deep and how many values of a result are walked for its entities (call/result.ts refuses
// one nested deeper than 64 levels); past them, the getters of those not found are called as the
// reply writes them, as before.
const MAX_DEPTH = 64
const MAX_VALUES = 100_000

/**
 * The entities and selections `result` holds, as call/result.ts `write` reaches them: in
 * arrays, sets, maps and plain objects' members, each once. An object with its own
 * `toJSON` (a Date…) is not entered, nor what the walk's bounds leave out. An entity not saved
 * (a draft, written as a save would leave it) is left out: the answers are kept by key, which a
 * new one lacks and which a changed one shares with its saved version; its getters are called as
 * the reply writes it.
 */
function heldIn(result: object): (Entity | EntitySelection)[] {
  const held: (Entity | EntitySelection)[] = []
  const seen = new Set<object>()
  let budget = MAX_VALUES
  const walk = (value: unknown, depth: number): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return
    seen.add(value)
    if (value instanceof Entity || value instanceof EntitySelection) {
      held.push(value)
      return
    }
    if (value instanceof EntityDraft) return
    if (depth >= MAX_DEPTH || ArrayBuffer.isView(value)) return
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return
    const items =
      Array.isArray(value) || value instanceof Set
        ? (value as Iterable<unknown>)
        : value instanceof Map
          ? value.values()
          : Object.values(value)
    for (const item of items) {
      if (--budget < 0) return
      walk(item, depth + 1)
    }
  }
  walk(result, 0)
  return held
}

/**
 * The getter calls with steps writing `held` makes: each entity (of a dataclass the session may
 * read: another's reply is refused, 1557) whole, and a selection's first page of what the
 * session's restrict shows, as call/result.ts writes them.
 */
function* heldCalls(
  ctx: RouteContext,
  held: readonly (Entity | EntitySelection)[],
): Generator<GetterCall, void, undefined> {
  for (const item of held) {
    const dc = item.dataClass
    if (ctx.perms !== undefined && !ctx.perms.may('read', dc.name)) continue
    const entities = (): Iterable<Entity | null> => {
      if (item instanceof Entity) return [item]
      return restrictedSelection(item).window(0, dc.def.defaultTopSize)
    }
    const calls = replyCalls(ctx.writer, dc, undefined, entities)
    if (calls !== undefined) yield* calls()
  }
}
