/**
 * @module Variables in generated code: reading one (a slot `v3`, a formula's copy `cx[0]`, a
 * formula's parameter `ag[0]`), assigning one (converted to its declared type, a process or
 * interprocess variable through the runtime), and the OutParameter a command receives for a
 * variable it writes (`Position`'s lengthFound: runtime/arguments/out-parameter.ts).
 */
import type { ExprNode } from '../../ast/expressions.js'
import type { Resolution, Slot } from '../analysis.js'
import type { EmitContext } from './context.js'
import { converted, emitted, staticTypeOf, type Emitted } from './emitted.js'
import { quote } from './quote.js'

/** A slot, a formula's copy of one, or a formula's parameter. */
export function variable(ctx: EmitContext, resolved: Resolution | undefined): Emitted {
  switch (resolved?.kind) {
    case 'slot':
      return emitted(`v${resolved.slot.id}`, staticTypeOf(resolved.slot.type), true)
    case 'captured':
      return emitted(captured(ctx, resolved.slot), staticTypeOf(resolved.slot.type), true)
    case 'formula-param':
      return emitted(resolved.index === 0 ? 'void 0' : `ag[${resolved.index - 1}]`, 'any', true)
    default:
      throw new Error('emit: a variable without a slot')
  }
}

/** How the current formula reads the copy of an outer slot. */
export function captured(ctx: EmitContext, slot: Slot): string {
  const frame = ctx.frame
  if (frame === null) return `v${slot.id}`
  const i = frame.captures.indexOf(slot)
  if (i < 0) throw new Error('emit: a formula reads a local it did not copy')
  return `cx[${i}]`
}

/**
 * The statement that puts `value` in the variable `target` (a local or parameter of the unit, a
 * process or interprocess variable), or undefined when `target` is not a variable code can
 * assign (an expression, a formula's `$0`).
 */
export function assignment(ctx: EmitContext, target: ExprNode, value: Emitted): string | undefined {
  const resolved = ctx.analysis.resolved.get(target)
  switch (target.kind) {
    case 'Local':
    case 'Param':
      if (resolved?.kind === 'slot' || resolved?.kind === 'captured')
        return `${variable(ctx, resolved).code} = ${converted(resolved.slot.type, value)};`
      if (resolved?.kind === 'formula-param' && resolved.index > 0)
        return `ag[${resolved.index - 1}] = ${value.code};`
      return undefined
    case 'Name':
      return `rt.pvSet(${quote(target.name)}, ${value.code});`
    case 'InterprocessVar':
      return `rt.ipSet(${quote(target.name)}, ${value.code});`
    default:
      return undefined
  }
}

/**
 * The argument of a command at a position its entry `writes`: for a variable, an OutParameter
 * over it (`rt.outParameter(() => v3, (t0) => { v3 = … })`); for anything else, its value, which
 * the command uses (`OB SET` on an object) or refuses.
 */
export function outArgument(
  ctx: EmitContext,
  node: ExprNode,
  value: (node: ExprNode) => Emitted,
): Emitted {
  const t = ctx.temp()
  if (node.kind === 'Deref') {
    // `ARRAY TEXT($p->; 0)`: the command writes what the pointer points to.
    const pointer = value(node.pointer).code
    return emitted(
      `rt.outParameter(() => rt.deref(${pointer}), (${t}) => rt.derefSet(${pointer}, ${t}))`,
    )
  }
  const write = assignment(ctx, node, emitted(t))
  if (write === undefined) return value(node)
  const read = node.kind === 'Name' ? emitted(`rt.pvGet(${quote(node.name)})`) : value(node)
  return emitted(`rt.outParameter(() => ${read.code}, (${t}) => { ${write} })`)
}
