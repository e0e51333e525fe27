/**
 * @module The parameters of 4D's `query()` as core takes them: `query(queryString; value…;
 * querySettings)` (the values of `:1`, `:2`… converted, the settings object last), or
 * `query(formula; querySettings)`, the formula run on each entity as 4D code with the entity as
 * `This` (`querySettings.args` its parameter), through core's formula query. From code in steps,
 * a formula with steps runs ahead for each entity core tests, in steps (formula-steps.ts).
 */
import type { DataClass, Entity, EntitySelection } from '@entistore/core'
import type { Runtime } from '../../runtime/context/runtime.js'
import type { Work } from '../../runtime/values/work.js'
import {
  formulaAhead,
  formulaCall,
  plainFormula,
  steppedFormula,
  type EntityFormula,
  type FormulaCall,
} from '../formula-steps.js'
import type { World } from '../world-shape.js'

type Target = DataClass | EntitySelection

// Core's formula query, `formula` called in the formula's place (a non-boolean answer is false).
const byFormula = (target: Target, formula: EntityFormula, call: FormulaCall): EntitySelection =>
  (target as DataClass).query((e) => formula(e) === true, call.settings)

export function queryOf(
  world: World,
  rt: Runtime,
  target: Target,
  args: readonly unknown[],
): EntitySelection {
  const [first, ...rest] = args
  const call = formulaCall(world, first, rest[0])
  if (call !== undefined) return byFormula(target, plainFormula(rt, world, call), call)
  // Null or a value neither text nor formula: core's 1626 ("Expecting a text or formula").
  if (typeof first !== 'string') return target.query(world.fromFourD(first) as never)
  return target.query(first, ...rest.map((v) => world.fromFourD(v)))
}

/**
 * The entities core's formula query tests, in its order: a dataclass's every entity its session
 * may read (`all()`, its restrict answered ahead), a selection's members (null once dropped).
 */
const tested = (target: Target): Iterable<Entity | null> =>
  ('all' in target ? target.all() : target).members()

/**
 * `query(formula; querySettings)` as steps, from code in steps: the formula's value for each
 * entity core tests computed ahead in steps, then core's query, which reads them. Undefined for a
 * query by text, a formula without steps, or one the settings refuse (`allowFormulas: false`:
 * core's 1278, the formula never called).
 */
export function formulaQuerySteps(
  world: World,
  rt: Runtime,
  target: Target,
  args: readonly unknown[],
): Work<EntitySelection> | undefined {
  const call = formulaCall(world, args[0], args[1])
  if (!steppedFormula(call) || call.settings.allowFormulas === false) return undefined
  return queriedAhead(world, rt, target, call)
}

function* queriedAhead(
  world: World,
  rt: Runtime,
  target: Target,
  call: FormulaCall,
): Work<EntitySelection> {
  const formula = yield* formulaAhead(rt, world, call, () => tested(target))
  return byFormula(target, formula, call)
}
