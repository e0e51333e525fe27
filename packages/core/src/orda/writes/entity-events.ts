/**
 * @module ORDA entity events (4D 20 R10 and 21) around the writes of orda/writes/writes.ts: `constructor`
 * when a new entity is made in memory, `touched` when a value changes, `validateSave` → `saving`
 * → the save → `afterSave`, and `validateDrop` → `dropping` → the drop → `afterDrop`. An
 * attribute's event runs before the entity's (`validateSave` and `saving` only for the attributes
 * the save writes). The first validate or -ing event that returns an error object refuses the
 * write (EventRefused, with the event's own errCode and componentSignature `DBEV`): nothing is
 * written, and inside a transaction the whole transaction is refused by the caller's throw. A
 * validate event's error is mild or serious by its `fatalError` (status 7 or 8, see
 * txn/save-status.ts); a saving or dropping event's is a serious error (status 4) whatever it says.
 * After-events run once the write has committed (the transaction's, when one is open); an error
 * thrown by one is ignored, since the write it follows is done. Each event also runs as work in
 * steps (`constructedSteps`, `touchedSteps`, `beforeSaveSteps`, `AfterEvents.steps`…), which a
 * write run in slices goes into: an event that runs in steps (its `steps`: code compiled from 4D)
 * stops where its code does, the others run at once.
 *
 * Events run for every write of the TypeScript API, which the REST interface goes through too.
 */
import { fail } from '../../errors/datastore-error.js'
import type { EventError } from '../../functions/define.js'
import type { DataClassEvents, EventHandlers } from '../../functions/registry.js'
import type { WrittenClass, WrittenEntity } from './written-class.js'
import type { Work } from '../../query/slices.js'

/** The events of `dc`, if its functions declare any. */
export function eventsOf(dc: WrittenClass): DataClassEvents | undefined {
  return dc.datastore.functions.events(dc.name)
}

// Own keys only: every object has an inherited `constructor`.
type EventHandler = NonNullable<EventHandlers[string]>

const handler = (handlers: EventHandlers | undefined, kind: string): EventHandler | undefined =>
  handlers !== undefined && Object.hasOwn(handlers, kind) ? handlers[kind] : undefined

/**
 * An event's function called with `self` and `event`, as work in steps: its own steps when it
 * runs in steps (code compiled from 4D), stopping where its code does; else called at once.
 */
function* called(fn: EventHandler | undefined, self: unknown, event?: unknown): Work<unknown> {
  if (!fn) return undefined
  const steps = fn.steps?.call(self, event) as Work<unknown> | undefined
  return steps === undefined ? fn.call(self, event) : yield* steps
}

/** Runs `constructor` on a new entity (`this`: its draft). */
export function constructed(events: DataClassEvents, draft: unknown): void {
  handler(events.entity, 'constructor')?.call(draft)
}

/** `constructed` as work in steps: a draft made in steps (entity-draft.ts `madeSteps`). */
export function* constructedSteps(events: DataClassEvents, draft: unknown): Work<void> {
  yield* called(handler(events.entity, 'constructor'), draft)
}

const touchedEvent = (dc: WrittenClass, attribute: string) =>
  ({ kind: 'touched', dataClassName: dc.name, attributeName: attribute }) as const

/** Runs `touched` for `attribute`: its own event, then the entity's. */
export function touched(
  events: DataClassEvents,
  dc: WrittenClass,
  draft: unknown,
  attribute: string,
): void {
  const event = touchedEvent(dc, attribute)
  handler(events.attributes.get(attribute), 'touched')?.call(draft, event)
  handler(events.entity, 'touched')?.call(draft, event)
}

/** `touched` as work in steps: a value set in steps (entity-draft.ts `setSteps`). */
export function* touchedSteps(
  events: DataClassEvents,
  dc: WrittenClass,
  draft: unknown,
  attribute: string,
): Work<void> {
  const event = touchedEvent(dc, attribute)
  yield* called(handler(events.attributes.get(attribute), 'touched'), draft, event)
  yield* called(handler(events.entity, 'touched'), draft, event)
}

/**
 * `validateSave` then `saving` (each: the written attributes' own, then the entity's), on the draft
 * about to be saved; throws EventRefused at the first that refuses.
 */
export function beforeSave(
  events: DataClassEvents,
  dc: WrittenClass,
  draft: unknown,
  written: () => readonly string[],
): void {
  for (const kind of ['validateSave', 'saving'] as const) {
    for (const name of written()) refuseIf(dc, kind, name, events.attributes.get(name), draft)
    refuseIf(dc, kind, undefined, events.entity, draft)
  }
}

/**
 * `beforeSave` as work in steps: each event that runs in steps (its `steps`: code compiled from
 * 4D) stops where its code does, so that a save run in slices (writes.ts `saveSteps`) holds no
 * other client while its events run; the others run at once.
 */
export function* beforeSaveSteps(
  events: DataClassEvents,
  dc: WrittenClass,
  draft: unknown,
  written: () => readonly string[],
): Work<void> {
  for (const kind of ['validateSave', 'saving'] as const) {
    for (const name of written())
      yield* refuseIfSteps(dc, kind, name, events.attributes.get(name), draft)
    yield* refuseIfSteps(dc, kind, undefined, events.entity, draft)
  }
}

/** `validateDrop` then `dropping` (each attribute's that has one, then the entity's). */
export function beforeDrop(events: DataClassEvents, dc: WrittenClass, entity: WrittenEntity): void {
  for (const kind of ['validateDrop', 'dropping'] as const) {
    for (const [name, handlers] of events.attributes) refuseIf(dc, kind, name, handlers, entity)
    refuseIf(dc, kind, undefined, events.entity, entity)
  }
}

/** `beforeDrop` as work in steps, as `beforeSaveSteps`. */
export function* beforeDropSteps(
  events: DataClassEvents,
  dc: WrittenClass,
  entity: WrittenEntity,
): Work<void> {
  for (const kind of ['validateDrop', 'dropping'] as const) {
    for (const [name, handlers] of events.attributes)
      yield* refuseIfSteps(dc, kind, name, handlers, entity)
    yield* refuseIfSteps(dc, kind, undefined, events.entity, entity)
  }
}

/**
 * The after-events of one write, to run once it has committed (after-commit.ts): at once,
 * or in steps by a caller that runs in slices (`writeInSteps`). An error one throws is
 * ignored: the write is committed, an after-event cannot undo it, nor fail it.
 */
export class AfterEvents {
  constructor(
    readonly entity: WrittenEntity,
    // Each function with its event object, attributes' first.
    readonly runs: readonly (readonly [EventHandler, object])[],
  ) {}

  run(): void {
    for (const [fn, event] of this.runs) {
      try {
        fn.call(this.entity, event)
      } catch {
        // Committed: see above.
      }
    }
  }

  *steps(): Work<void> {
    for (const [fn, event] of this.runs) {
      try {
        yield* called(fn, this.entity, event)
      } catch {
        // Committed: see above.
      }
    }
  }
}

/** `afterSave` on the saved version: what it wrote, `success`; undefined when none is declared. */
export function afterSave(
  events: DataClassEvents,
  dc: WrittenClass,
  saved: WrittenEntity,
  written: readonly string[],
): AfterEvents | undefined {
  return after(events, dc, saved, 'afterSave', written, {
    savedAttributes: written,
    saveStatus: 'success',
  })
}

/** `afterDrop` on the entity as it was: its attributes, `success`; undefined when none is declared. */
export function afterDrop(
  events: DataClassEvents,
  dc: WrittenClass,
  dropped: WrittenEntity,
): AfterEvents | undefined {
  const names = dc.def.storage.map((a) => a.name)
  return after(events, dc, dropped, 'afterDrop', [...events.attributes.keys()], {
    droppedAttributes: names,
    dropStatus: 'success',
  })
}

// Each attribute's event of `kind` that is declared, then the entity's.
function after(
  events: DataClassEvents,
  dc: WrittenClass,
  entity: WrittenEntity,
  kind: 'afterSave' | 'afterDrop',
  attributes: readonly string[],
  facts: Readonly<Record<string, unknown>>,
): AfterEvents | undefined {
  const runs: (readonly [EventHandler, object])[] = []
  const add = (handlers: EventHandlers | undefined, attributeName?: string): void => {
    const fn = handler(handlers, kind)
    if (!fn) return
    runs.push([
      fn,
      {
        kind,
        dataClassName: dc.name,
        ...(attributeName === undefined ? {} : { attributeName }),
        ...facts,
      },
    ])
  }
  for (const name of attributes) add(events.attributes.get(name), name)
  add(events.entity)
  return runs.length === 0 ? undefined : new AfterEvents(entity, runs)
}

function refuseIf(
  dc: WrittenClass,
  kind: RefusingKind,
  attributeName: string | undefined,
  handlers: EventHandlers | undefined,
  self: unknown,
): void {
  const fn = handler(handlers, kind)
  if (fn) refusedBy(dc, kind, attributeName, fn.call(self, eventOf(dc, kind, attributeName)))
}

// `refuseIf` in steps: an event that runs in steps stops where its code does.
function* refuseIfSteps(
  dc: WrittenClass,
  kind: RefusingKind,
  attributeName: string | undefined,
  handlers: EventHandlers | undefined,
  self: unknown,
): Work<void> {
  const fn = handler(handlers, kind)
  if (fn)
    refusedBy(dc, kind, attributeName, yield* called(fn, self, eventOf(dc, kind, attributeName)))
}

type RefusingKind = 'validateSave' | 'saving' | 'validateDrop' | 'dropping'

const eventOf = (dc: WrittenClass, kind: RefusingKind, attributeName: string | undefined) => ({
  kind,
  dataClassName: dc.name,
  ...(attributeName === undefined ? {} : { attributeName }),
})

// Refuses the write with what the event returned, when it is an error object (anything else,
// nothing included, lets the write go on).
function refusedBy(
  dc: WrittenClass,
  kind: RefusingKind,
  attributeName: string | undefined,
  result: unknown,
): void {
  if (typeof result !== 'object' || result === null) return
  const refusal = result as EventError
  const message =
    typeof refusal.message === 'string' && refusal.message !== ''
      ? refusal.message
      : `${dc.name}'s ${kind} event refused the ${kind.endsWith('Drop') || kind === 'dropping' ? 'drop' : 'save'}`
  fail('EventRefused', [message], {
    code: {
      errCode: Number.isSafeInteger(refusal.errCode) ? refusal.errCode! : 9138,
      componentSignature: 'DBEV',
    },
    details: {
      event: kind,
      dataClass: dc.name,
      ...(attributeName === undefined ? {} : { attribute: attributeName }),
      ...(refusal.extraDescription === undefined
        ? {}
        : { extraDescription: refusal.extraDescription }),
      ...severity(kind, refusal),
    },
  })
}

/**
 * The refusal's weight, in its details: `fatalError` as 4D 21 reads it (a validate event's own
 * choice, false by default; absent for saving and dropping, whose errors are plain serious errors),
 * and `seriousError`, true unless the refusal is a mild validation error.
 */
function severity(
  kind: RefusingKind,
  refusal: EventError,
): { fatalError?: boolean; seriousError: boolean } {
  if (kind === 'saving' || kind === 'dropping') return { seriousError: true }
  const fatal = (refusal.fatalError ?? refusal.seriousError) === true
  return { fatalError: fatal, seriousError: fatal }
}
