/**
 * @module The parameters of 4D's `query()` as core takes them: `query(queryString; value…;
 * querySettings)` (the values of `:1`, `:2`… converted, the settings object last), or
 * `query(formula; querySettings)`, the formula run on each entity as 4D code with the entity as
 * `This` (`querySettings.args` its parameter), through core's formula query.
 */
import type { DataClass, EntitySelection, FormulaQuerySettings } from '@entistore/core'
import { FourDFunction } from '../../runtime/context/function-object.js'
import type { Runtime } from '../../runtime/context/runtime.js'
import type { World } from '../world-shape.js'

export function queryOf(
  world: World,
  rt: Runtime,
  target: DataClass | EntitySelection,
  args: readonly unknown[],
): EntitySelection {
  const [first, ...rest] = args
  if (first instanceof FourDFunction) {
    const settings = (world.fromFourD(rest[0]) ?? {}) as FormulaQuerySettings
    const params = [world.toFourD(settings.args)]
    const formula = (entity: unknown): boolean =>
      first.invoke(rt, world.toFourD(entity), params) === true
    return (target as DataClass).query(formula, settings)
  }
  // Null or a value neither text nor formula: core's 1626 ("Expecting a text or formula").
  if (typeof first !== 'string') return target.query(world.fromFourD(first) as never)
  return target.query(first, ...rest.map((v) => world.fromFourD(v)))
}
