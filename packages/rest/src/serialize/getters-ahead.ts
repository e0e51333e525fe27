/**
 * @module Which getter calls a reply makes, for core to make ahead in the read's slices
 * (core's query/getters-ahead.ts): those of the computed attributes with steps (a 4D project's)
 * the writer writes for the session, of the page's entities and of the related entities written
 * out in them (`$expand`, `$attributes=employer.label`), each under its projection, as
 * entity.ts's `parts` and `expand` walk them. A reply written after its request's run (a piece at a
 * time, as its client reads) finds their values there and calls none at once: a getter that loops
 * holds no other client.
 */
import {
  currentAnswersAhead,
  gettersAhead,
  withAnswersAhead,
  type AnswersAhead,
  type DataClass,
  type Entity,
  type EntitySelection,
  type GetterCall,
} from '@entistore/core'
import type { EntityWriter } from './entity.js'
import type { Around } from './json-chunks.js'
import type { Projection } from './projection.js'

/**
 * The answers of the getter calls the reply of `entities` (of `dc`) under `projection` makes:
 * made in the read's slices, or those its caller made ahead (`withAnswersAhead`: a function's
 * result, call/result-ahead.ts); undefined when it makes none with steps, or outside a slice
 * scope.
 */
export function answersAhead(
  writer: EntityWriter,
  dc: DataClass,
  projection: Projection | undefined,
  entities: () => Iterable<Entity | null>,
): AnswersAhead | undefined {
  const calls = replyCalls(writer, dc, projection, entities)
  return calls === undefined ? undefined : (currentAnswersAhead() ?? gettersAhead(calls))
}

/**
 * The getter calls with steps the reply of `entities` (of `dc`) under `projection` makes, as
 * they are asked for; undefined when it makes none.
 */
export function replyCalls(
  writer: EntityWriter,
  dc: DataClass,
  projection: Projection | undefined,
  entities: () => Iterable<Entity | null>,
): (() => Iterable<GetterCall>) | undefined {
  if (!callsSteps(writer, dc, projection, 0)) return undefined
  return function* () {
    for (const entity of entities()) if (entity !== null) yield* callsOf(writer, entity, projection)
  }
}

/** The writing of a reply, where the getters find `answers`; undefined without them. */
export function around(answers: AnswersAhead | undefined): Around | undefined {
  return answers === undefined ? undefined : (write) => withAnswersAhead(answers, write)
}

// How deep a projection's relations are followed to find getters with steps: a projection is
// parsed from a request of bounded length, this only keeps a pathological one from costing more.
const MAX_DEPTH = 16

// Whether a reply of `dc` under `projection` writes any getter with steps, at any level.
function callsSteps(
  writer: EntityWriter,
  dc: DataClass,
  projection: Projection | undefined,
  depth: number,
): boolean {
  if (writer.gettersWithSteps(dc, projection).length > 0) return true
  if (projection?.nested !== true || depth >= MAX_DEPTH) return false
  return writer
    .writtenOut(dc, projection)
    .some(({ target, member }) => callsSteps(writer, target, member.projection, depth + 1))
}

// The calls writing `entity` under `projection` makes, its related entities' written out included.
function* callsOf(
  writer: EntityWriter,
  entity: Entity,
  projection: Projection | undefined,
): Generator<GetterCall, void, undefined> {
  for (const getter of writer.gettersWithSteps(entity.dataClass, projection)) yield [entity, getter]
  if (projection?.nested !== true) return
  for (const { attr, member } of writer.writtenOut(entity.dataClass, projection)) {
    const value = entity.valueOf(attr)
    if (member.kind === 'entity') {
      if (value !== null) yield* callsOf(writer, value as Entity, member.projection)
      continue
    }
    // A page of them, as `parts` writes it.
    const selection = value as EntitySelection
    for (const e of selection.window(0, selection.dataClass.def.defaultTopSize))
      if (e) yield* callsOf(writer, e, member.projection)
  }
}
