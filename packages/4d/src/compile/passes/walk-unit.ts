/**
 * @module Walking a unit's code (its statements, or the expression of an initializer or formula)
 * with the AST's walker.
 */
import type { Node } from '../../ast/nodes.js'
import { walk } from '../../ast/walk.js'
import type { Unit } from '../units.js'

export function walkUnit(
  unit: Unit,
  visit: (node: Node, parent: Node | null) => boolean | void,
): void {
  for (const statement of unit.body) walk(statement, visit)
  if (unit.expression !== null) walk(unit.expression, visit)
}
