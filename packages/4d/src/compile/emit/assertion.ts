/**
 * @module `ASSERT` and `Asserted` of a comparison, written so that a failed assertion can say what
 * it compared (`expr` is expressions.ts's, passed in: that module calls this one).
 */
import type { ExprNode } from '../../ast/expressions.js'
import type { EmitContext } from './context.js'
import { emitted, type Emitted } from './emitted.js'
import { binary, bindBoth, COMPARISONS } from './operators.js'
import { quote } from './quote.js'

/** `ASSERT` and `Asserted`, by number. */
const ASSERTS = new Set([1129, 1132])

/**
 * `ASSERT(a = b{; message})` (any comparison): its operands evaluated once into temporaries and
 * handed to the command too, one argument each (an assertion that holds makes no object), so
 * that a failed assertion says the values it compared (the test runner shows them:
 * project/test-run.ts). Any other argument: undefined, the plain call.
 */
export function assertion(
  ctx: EmitContext,
  number: number,
  list: readonly ExprNode[],
  expr: (ctx: EmitContext, node: ExprNode) => Emitted,
): Emitted | undefined {
  const test = list[0]
  if (!ASSERTS.has(number) || test?.kind !== 'Binary' || !COMPARISONS.has(test.op)) return undefined
  const { pre, a, b } = bindBoth(ctx, expr(ctx, test.left), expr(ctx, test.right))
  const compared = binary(ctx, test.op, a, b)
  const message = list[1] === undefined ? 'undefined' : expr(ctx, list[1]).code
  return emitted(
    `(${pre}rt.k[${number}](rt, ${compared.code}, ${message}, ${a.code}, ${quote(test.op)}, ${b.code}))`,
    number === 1129 ? 'any' : 'bool',
  )
}

/** A command's call: its arguments (a variable where it writes one), its steps in a generator. */
