/**
 * @module Pass `check-declarations`: the type of each slot, from the parameters and result
 * declared with the unit, `var` statements and the classic `C_` commands. A declaration applies
 * to the whole unit (4D's compiler types a variable once, wherever the line is); a second
 * declaration with another type is reported and the first kept. `var $x := value` without a type
 * takes the literal's (4D infers Real for a number); another expression gives a Variant.
 */
import type { ExprNode, IndirectParamNode } from '../../ast/expressions.js'
import type { Loc } from '../../ast/loc.js'
import type { Node } from '../../ast/nodes.js'
import type { TypeRefNode, VarNode } from '../../ast/statements.js'
import type { DeclaredType } from '../../runtime/convert/assign.js'
import type { Analysis, Slot } from '../analysis.js'
import { declaredType } from '../types.js'
import type { ClassicDeclaration } from './lower-classic.js'
import { localSlot, paramSlot } from './resolve-names.js'
import { walkUnit } from './walk-unit.js'

export function checkDeclarations(
  analysis: Analysis,
  classic: readonly ClassicDeclaration[],
): void {
  const { unit } = analysis
  for (const [i, p] of (unit.params ?? []).entries()) {
    const type = p.type === null ? 'Variant' : typeOf(analysis, p.type)
    if (p.variadic) {
      analysis.variadicType = type
      analysis.variadicFrom = i + 1
    } else {
      const slot = analysis.params[i]
      if (slot !== undefined) setType(analysis, slot, type, p.loc)
    }
  }
  if (unit.result !== null && analysis.result !== undefined)
    setType(
      analysis,
      analysis.result,
      unit.result.type === null ? 'Variant' : typeOf(analysis, unit.result.type),
      unit.result.loc,
    )
  // In the order of the text, so that the first declaration is the one kept.
  const byStatement = new Map<Node, ClassicDeclaration[]>()
  for (const d of classic)
    byStatement.set(d.statement, [...(byStatement.get(d.statement) ?? []), d])
  walkUnit(analysis.unit, (node) => {
    if (node.kind === 'Var') declareVar(analysis, node)
    for (const d of byStatement.get(node) ?? []) declareClassic(analysis, d)
  })
}

function typeOf(analysis: Analysis, ref: TypeRefNode): DeclaredType {
  const type = declaredType(ref)
  if (type !== undefined) return type
  analysis.session.warning('unknown-type', `Unknown type "${ref.path.join('.')}"`, ref.loc)
  return 'Variant'
}

function setType(analysis: Analysis, slot: Slot, type: DeclaredType, loc: Loc): void {
  if (slot.type === undefined) {
    slot.type = type
    slot.typeLoc = loc
  } else if (slot.type !== type)
    analysis.session.warning(
      'declaration',
      `${slot.display} is declared ${type} here and ${slot.type} at line ${slot.typeLoc?.start.line ?? '?'}`,
      loc,
    )
}

function declareClassic(analysis: Analysis, d: ClassicDeclaration): void {
  const target = d.target
  switch (target.kind) {
    case 'Local':
      return setType(analysis, localSlot(analysis, target.name), d.type, d.loc)
    case 'Param':
      return setType(analysis, paramSlot(analysis, target.index), d.type, d.loc)
    case 'IndirectParam':
      return declareVariadic(analysis, target, d.type)
    case 'Name':
      return declareProcess(analysis, d.statement, target.name, d.type)
    default:
      analysis.session.warning('declaration', 'A C_ command declares variables only', d.loc)
  }
}

function declareVar(analysis: Analysis, node: VarNode): void {
  if (node.init !== null && node.names.length > 1) {
    // variables.md: "Multiple assignments in one line are not supported".
    const message = 'var gives a value to one variable only'
    analysis.session.error('declaration', message, node.loc)
    analysis.invalid.set(node, message)
  }
  if (node.init !== null && node.names.some((n) => n.kind === 'IndirectParam')) {
    const message = 'var ${n} types parameters: it gives no value'
    analysis.session.error('declaration', message, node.loc)
    analysis.invalid.set(node, message)
  }
  const type =
    node.type !== null
      ? typeOf(analysis, node.type)
      : node.init !== null
        ? inferred(node.init)
        : 'Variant'
  for (const name of node.names) {
    if (name.kind === 'Local') setType(analysis, localSlot(analysis, name.name), type, node.loc)
    else if (name.kind === 'Param')
      setType(analysis, paramSlot(analysis, name.index), type, node.loc)
    else if (name.kind === 'Name') declareProcess(analysis, node, name.name, type)
    else if (name.kind === 'IndirectParam') declareVariadic(analysis, name, type)
  }
}

/** `C_TEXT(${3})`, `var ${3} : Text`: the parameters from the third on. */
function declareVariadic(analysis: Analysis, target: IndirectParamNode, type: DeclaredType): void {
  if (target.index.kind !== 'Number') return
  analysis.variadicType = type
  analysis.variadicFrom = target.index.value
}

// A process variable is typed when its declaration runs (rt.pvDeclare).
function declareProcess(
  analysis: Analysis,
  statement: Node,
  name: string,
  type: DeclaredType,
): void {
  const list = analysis.processDeclarations.get(statement) ?? []
  list.push({ name, type })
  analysis.processDeclarations.set(statement, list)
}

/** The type `var $x := value` gives `$x` (variables.md: a number gives a Real). */
function inferred(init: ExprNode): DeclaredType {
  switch (init.kind) {
    case 'Text':
      return 'Text'
    case 'Number':
      return 'Real'
    case 'Bool':
      return 'Boolean'
    case 'Date':
      return 'Date'
    case 'Time':
      return 'Time'
    case 'ObjectLiteral':
      return 'Object'
    case 'CollectionLiteral':
      return 'Collection'
    default:
      return 'Variant'
  }
}
