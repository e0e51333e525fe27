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
 * names; a call this does not foresee is made where the reply reads it, as before.
 */
import {
  Entity,
  EntityDraft,
  EntitySelection,
  gettersAheadInTurns,
  restrictedSelection,
  withAnswersAhead,
  type AnswersAhead,
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
  const dc =
    entity instanceof Entity || entity instanceof EntitySelection ? entity.dataClass : undefined
  if (dc === undefined) return undefined
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
