/**
 * @module An assignment as a JavaScript expression, for the body of a formula
 * (`Formula(Form.x:=$1)`): the same conversions and compound operators as the statement
 * (statements.ts), the formula answering nothing.
 */
import type { AssignNode } from '../../ast/statements.js'
import type { EmitContext } from './context.js'
import { emitted, type Emitted } from './emitted.js'
import { expr, targetRead } from './expressions.js'
import { binary } from './operators.js'
import { quote } from './quote.js'
import { COMPOUND } from './statements.js'
import { assignment } from './variables.js'

export function assignExpression(ctx: EmitContext, node: AssignNode): Emitted {
  const { target } = node
  const op = node.op === ':=' ? undefined : COMPOUND[node.op]
  const value = (current: () => Emitted): Emitted =>
    op === undefined ? expr(ctx, node.value) : binary(ctx, op, current(), expr(ctx, node.value))
  if (target.kind === 'Member' || target.kind === 'Index') {
    // The object (and key) evaluated once, before the value, into temporaries of the formula.
    const object = ctx.temp()
    const key = target.kind === 'Member' ? quote(target.name) : ctx.temp()
    const keyCode = target.kind === 'Index' ? `${key} = ${expr(ctx, target.index).code}, ` : ''
    const v = value(() => targetRead(ctx, target, object, key))
    return emitted(
      `(${object} = ${expr(ctx, target.object).code}, ${keyCode}rt.set(${object}, ${key}, ${v.code}), void 0)`,
    )
  }
  const code = assignment(
    ctx,
    target,
    value(() => expr(ctx, target)),
  )
  if (code === undefined)
    return emitted(`rt.unsupported(${quote(`Assigning a ${target.kind} in a formula`)})`)
  return emitted(`(${code.replace(/;$/, '')}, void 0)`)
}
