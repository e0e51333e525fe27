/**
 * @module The entity events of a project's Entity classes (docs/ORDA/orda-events.md, 4D 20 R10 and
 * 21) as core's `events` and `attributeEvents` of the dataclass (orda/objects/define-functions.ts), which
 * core runs around every write as it runs a functions module's: `Class constructor` for a new
 * entity, `Function event touched/validateSave/saving/afterSave/validateDrop/dropping/afterDrop`,
 * for the entity or one attribute (`Function event validateSave price($event : Object)`).
 *
 * Each runs through the project's runner as the caller: `This` is what core hands the event (the
 * draft being saved up to the save, so that `This.stamp:=…` in `saving` is saved; the stored
 * entity after it and for a drop), `$event` core's event object as a 4D object, and what the
 * function returns (4D's error object, `{errCode; message; extraDescription; seriousError}`) goes
 * back to core, which refuses the write with it as it refuses a module's (statuses 7/8, 4). A 4D
 * error raised by the code fails the write with 4D's error stack, as a module's throw does. Each,
 * the constructor included, has its steps beside (`steps`), which core runs where the write runs
 * in slices (a REST write, 4D code's `ds.X.new()`, `$e.name:=…` or `$e.save()` in a call in
 * slices): an event that loops holds no other client.
 */
import type { DataClassFunctionDefs, Datastore, Entity, EntityDraft } from '@entistore/core'
import type { OrdaMember } from '../runtime/context/class-object.js'
import type { FourDFunction } from '../runtime/context/function-object.js'
import type { ProjectClass } from './compile-project.js'
import type { ProjectRunner, RunContext } from './project-runner.js'

/** Core's event kinds, by their name in lower case (4D's names are not case-sensitive). */
const KINDS = new Map(
  ['touched', 'validateSave', 'saving', 'afterSave', 'validateDrop', 'dropping', 'afterDrop'].map(
    (k) => [k.toLowerCase(), k],
  ),
)

/** What core runs an event on: the draft being saved, or the stored entity. */
type Written = Entity | EntityDraft
type Handler = ((this: Written, event?: unknown) => unknown) & {
  steps?: (this: Written, event?: unknown) => Generator<void, unknown, void> | undefined
}

// The events run on the written entity's datastore, also outside a function call (a REST write).
const datastoreOf = (self: Written): Datastore => self.dataClass.datastore as unknown as Datastore

/** The events of an Entity class, in core's shape; undefined parts when it declares none. */
export interface EntityClassEvents {
  readonly events: DataClassFunctionDefs['events']
  readonly attributeEvents: DataClassFunctionDefs['attributeEvents']
}

/**
 * The events `c` (a `{DataClass}Entity` class) declares, run by `runner`: its `Function event`
 * members and its constructor (its own: the one of `Entity` makes nothing).
 */
export function entityEvents(c: ProjectClass, runner: ProjectRunner): EntityClassEvents {
  const events: Record<string, Handler> = {}
  const attributeEvents: Record<string, Record<string, Handler>> = {}
  for (const m of c.ast.members) {
    if (m.kind !== 'Function' || m.functionKind !== 'event') continue
    const kind = KINDS.get(m.name.toLowerCase())
    if (kind === undefined) continue
    const where = `${c.name}.event ${kind}${m.attribute === null ? '' : ` ${m.attribute}`}`
    const handler = eventHandler(c, runner, where, m.name, m.attribute)
    if (m.attribute === null) events[kind] = handler
    else (attributeEvents[m.attribute] ??= {})[kind] = handler
  }
  if (c.ast.members.some((m) => m.kind === 'Constructor'))
    Object.defineProperty(events, 'constructor', {
      value: constructorHandler(c, runner),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  return {
    events: Object.keys(events).length === 0 ? undefined : events,
    attributeEvents: Object.keys(attributeEvents).length === 0 ? undefined : attributeEvents,
  }
}

/** The class's compiled event `name` of `attribute` (null: the entity's). */
const eventCode = (members: readonly OrdaMember[], name: string, attribute: string | null) =>
  members.find((m) => m.kind === 'event' && m.name === name && m.attribute === attribute)?.fn

function eventHandler(
  c: ProjectClass,
  runner: ProjectRunner,
  where: string,
  name: string,
  attribute: string | null,
): Handler {
  return handlerOf(c, runner, where, (cls) => eventCode(cls.definition.orda, name, attribute), true)
}

/** `Class constructor` of the Entity class, run on a new entity (no parameter, as in 4D). */
const constructorHandler = (c: ProjectClass, runner: ProjectRunner): Handler =>
  handlerOf(c, runner, `${c.name}.constructor`, (cls) => cls.definition.constructorFunction, false)

/**
 * The code `codeOf` finds in the class, run on what core hands (`This`, and `$event` when
 * `withEvent`), plain or in steps, which core runs in a write's slices: an event that loops holds
 * no one.
 */
function handlerOf(
  c: ProjectClass,
  runner: ProjectRunner,
  where: string,
  codeOf: (cls: RunContext['cls']) => FourDFunction | undefined,
  withEvent: boolean,
): Handler {
  const target = (self: Written, event: unknown, { cls, bridge }: RunContext) => ({
    code: codeOf(cls),
    self: bridge.toFourD(self),
    params: withEvent ? [bridge.toFourD(event)] : [],
  })
  // 4D's error object as core reads it; nothing (or not an object) lets the write go on.
  const result = ({ bridge }: RunContext, value: unknown): unknown => bridge.fromFourD(value)
  const handler: Handler = function (this: Written, event?: unknown): unknown {
    const body = (cx: RunContext): unknown => {
      const { code, self, params } = target(this, event, cx)
      return code === undefined ? undefined : result(cx, cx.rt.invoke(code, self, params))
    }
    return runner.run(c, where, body, datastoreOf(this))
  }
  handler.steps = function (this: Written, event?: unknown) {
    const ds = datastoreOf(this)
    return runner.stepsOf(
      c,
      where,
      (cx) => target(this, event, cx),
      result,
      (e) => e,
      ds,
    )
  }
  return handler
}
