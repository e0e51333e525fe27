/**
 * @module Pass `lower-classic`: the classic language's declarations made declarations like the
 * others. `C_TEXT($1;$t)` (and every `C_` command, tokenized or not) types its variables and
 * makes no code; `C_TEXT(${3})` types the parameters from the third on; `#DECLARE` makes no code
 * (its parameters are the unit's, units.ts). `$0` as the result is resolve-names'.
 */
import type { ExprNode } from '../../ast/expressions.js'
import type { Loc } from '../../ast/loc.js'
import type { Node } from '../../ast/nodes.js'
import type { DeclaredType } from '../../runtime/convert/assign.js'
import type { Analysis } from '../analysis.js'
import { classicDeclarationType } from '../types.js'
import { walkUnit } from './walk-unit.js'

/** One variable a `C_` command types. */
export interface ClassicDeclaration {
  /** The `C_` statement. */
  readonly statement: Node
  readonly target: ExprNode
  readonly type: DeclaredType
  readonly loc: Loc
}

export function lowerClassic(analysis: Analysis): ClassicDeclaration[] {
  const out: ClassicDeclaration[] = []
  walkUnit(analysis.unit, (node) => {
    if (node.kind === 'Declare') {
      analysis.skip.add(node)
      return false
    }
    if (node.kind !== 'ExprStmt') return
    const call = node.expr
    if (call.kind !== 'Command' && call.kind !== 'MethodCall') return
    const type = classicDeclarationType(call.name)
    if (type === undefined) return
    analysis.skip.add(node)
    analysis.resolved.set(call, { kind: 'intrinsic', name: 'declaration' })
    for (const target of call.args ?? [])
      out.push({ statement: node, target, type, loc: target.loc })
    return false
  })
  return out
}
