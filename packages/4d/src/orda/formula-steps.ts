/**
 * @module A formula of 4D code that core calls once for each entity (`orderByFormula()`'s key, a
 * `query(formula)`'s test), run in steps when the calling code runs in steps (issue 78): the
 * formula's values for the entities core will call it on are computed ahead, each call the
 * formula's own steps (a loop in it, a method it calls, a getter it reads stop where they stop),
 * a yield between slices; then core's plain member runs with a formula that reads the kept values.
 * Core's ordering and filtering (which entities, their order, `dk descending`, a non-boolean
 * answer counting as false) stay core's alone: only the formula's calls move ahead.
 */
import type { Entity, FormulaQuerySettings } from '@entistore/core'
import { FourDFunction } from '../runtime/context/function-object.js'
import type { Runtime } from '../runtime/context/runtime.js'
import type { Work } from '../runtime/values/work.js'
import type { World } from './world-shape.js'

/** What the formula's calls ask of the world: an entity of core as 4D code holds it. */
type Converting = Pick<World, 'toFourD'>

/** A formula as core calls it: `This` the entity, the settings' `args` its `$1`. */
export type EntityFormula = (entity: Entity) => unknown

/** A 4D formula, its settings (4D's, as core takes them) and its `$1`, the settings' `args`. */
export interface FormulaCall {
  readonly formula: FourDFunction
  readonly settings: FormulaQuerySettings
  readonly params: unknown[]
}

/** The formula of a member's arguments and its settings; undefined for no formula. */
export function formulaCall(
  world: World,
  formula: unknown,
  settings: unknown,
): FormulaCall | undefined {
  if (!(formula instanceof FourDFunction)) return undefined
  const given = (world.fromFourD(settings) ?? {}) as FormulaQuerySettings
  return { formula, settings: given, params: [world.toFourD(given.args)] }
}

/** The formula called at once, for each entity core gives it. */
export const plainFormula =
  (rt: Runtime, world: Converting, call: FormulaCall): EntityFormula =>
  (entity) =>
    call.formula.invoke(rt, world.toFourD(entity), call.params)

/**
 * Whether a call from code in steps computes the formula's values ahead: it is 4D code with
 * steps. One that calls nothing and reads no member (`Formula(1)`) has none: the member runs at
 * once, no generator made for it or for each entity.
 */
export const steppedFormula = (call: FormulaCall | undefined): call is FormulaCall =>
  call !== undefined && call.formula.hasSteps

/** A value computed for one version of an entity. */
interface Kept {
  readonly key: unknown
  readonly stamp: number
  readonly value: unknown
}

/**
 * The kept value of `entity`'s version: the entity objects core gives for one version are not
 * always the same object (a table makes those of its rows loaded in bulk as they are read, and
 * forgets them), so a version is its row, its key and its stamp, which a save changes.
 */
function keptFor(kept: ReadonlyMap<number, Kept>, entity: Entity): Kept | undefined {
  const k = kept.get(entity.rowId)
  return k !== undefined && k.stamp === entity.stamp && k.key === entity.key ? k : undefined
}

/** `steps`, its stops noted in `pass`; closed when this is (a `Use` it holds let go). */
function* noted<T>(steps: Work<T>, pass: { stopped: boolean }): Work<T> {
  try {
    for (;;) {
      const r = steps.next()
      if (r.done === true) return r.value
      pass.stopped = true
      yield
    }
  } finally {
    steps.return(undefined as T)
  }
}

/**
 * The formula's value for each entity `entities()` gives (the non-null ones: those core calls it
 * on), computed in steps, in that order, once each; then what core calls in their place: the kept
 * value of an entity, or the formula called at once for one not kept.
 *
 * Between two slices another client may write: an entity saved meanwhile is a new version, an
 * entity created a new member of a dataclass's entities. So the values are kept by version, and
 * `entities()` is asked again, after a pass that stopped, until it gives none not kept: core,
 * called right after in the same slice, finds every value kept, and each value is the formula's
 * for the version core reads.
 */
export function* formulaAhead(
  rt: Runtime,
  world: Converting,
  call: FormulaCall,
  entities: () => Iterable<Entity | null>,
): Work<EntityFormula> {
  const { formula, params } = call
  const kept = new Map<number, Kept>()
  // Whether the pass stopped: only then can another client have written meanwhile, and the
  // entities be asked again (a pass that never stopped ran in one slice: nothing moved).
  const pass = { stopped: true }
  while (pass.stopped) {
    pass.stopped = false
    for (const entity of entities()) {
      if (entity === null || keptFor(kept, entity) !== undefined) continue
      const self = world.toFourD(entity)
      const ticks = rt.ticks
      const steps = formula.steps(rt, self, params)
      const value =
        steps === undefined ? formula.invoke(rt, self, params) : yield* noted(steps, pass)
      kept.set(entity.rowId, { key: entity.key, stamp: entity.stamp, value })
      // A call that read the clock (its ticks ran out and were given again) ends where a slice
      // may: a formula whose steps never stop still lets a slice end every so many calls.
      if (rt.ticks > ticks) {
        pass.stopped = true
        yield
      }
    }
  }
  const plain = plainFormula(rt, world, call)
  return (entity) => {
    const k = keptFor(kept, entity)
    return k !== undefined ? k.value : plain(entity)
  }
}
