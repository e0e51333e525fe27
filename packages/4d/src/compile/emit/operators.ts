/**
 * @module 4D's operators as JavaScript (research §8.4, §8.7). Every operator is a call of the
 * runtime (`rt.add(a, b)`), whose type tables are 4D's; where the code generator knows both
 * operands are numbers it writes JavaScript's own operator instead, and where it does not, the
 * number test is inlined before the call (`typeof a === "number" && … ? a + b : rt.add(a, b)`),
 * the way V8 keeps a loop of numbers fast. Operands are evaluated once, left to right.
 */
import type { AssignNode, BinaryOp } from '../../ast/expressions.js'
import type { EmitContext } from './context.js'
import { emitted, isNumber, type Emitted, type StaticType } from './emitted.js'

const CALLS: Readonly<Record<BinaryOp, string>> = {
  '+': 'add',
  '-': 'sub',
  '*': 'mul',
  '/': 'div',
  '\\': 'idiv',
  '%': 'mod',
  '^': 'pow',
  '=': 'eq',
  '#': 'ne',
  '<': 'lt',
  '>': 'gt',
  '<=': 'le',
  '>=': 'ge',
  '&': 'band',
  '|': 'bor',
  '^|': 'bxor',
  '<<': 'shl',
  '>>': 'shr',
  '?+': 'bitSet',
  '?-': 'bitClear',
  '??': 'bitTest',
}

/** The operators that compare (`=`, `#`, `<`…): their result is a Boolean. */
export const COMPARISONS: ReadonlySet<BinaryOp> = new Set<BinaryOp>([
  '=',
  '#',
  '<',
  '>',
  '<=',
  '>=',
])
const JS_COMPARE: Partial<Record<BinaryOp, string>> = {
  '=': '===',
  '#': '!==',
  '<': '<',
  '>': '>',
  '<=': '<=',
  '>=': '>=',
}

/** The operands made safe to write more than once: each impure one into a temporary, in order. */
export function bindBoth(
  ctx: EmitContext,
  l: Emitted,
  r: Emitted,
): { pre: string; a: Emitted; b: Emitted } {
  const pre: string[] = []
  const bind = (e: Emitted): Emitted => {
    if (e.pure) return e
    const t = ctx.temp()
    pre.push(`${t} = ${e.code}`)
    return emitted(t, e.type, true)
  }
  // Reading a variable later than written is safe: nothing in an expression assigns one.
  const a = bind(l)
  const b = bind(r)
  return { pre: pre.map((p) => `${p}, `).join(''), a, b }
}

const call = (op: BinaryOp, l: Emitted, r: Emitted, type: StaticType = 'any'): Emitted =>
  emitted(`rt.${CALLS[op]}(${l.code}, ${r.code})`, COMPARISONS.has(op) ? 'bool' : type)

// Whether both operands may be texts: neither is known to be a number or a Boolean.
const mayBeTexts = (l: Emitted, r: Emitted): boolean =>
  !isNumber(l) && !isNumber(r) && l.type !== 'bool' && r.type !== 'bool'

/**
 * A comparison (or `%`) that may be of two long texts: in a generator, its steps' form
 * (runtime/ops/compare-steps.ts), gone into when the texts are long; elsewhere the plain call.
 */
const stepping = (
  ctx: EmitContext,
  op: BinaryOp,
  l: Emitted,
  r: Emitted,
  type: StaticType,
): Emitted =>
  ctx.yields
    ? emitted(ctx.calling(CALLS[op], `${CALLS[op]}Steps`, `${l.code}, ${r.code}`), type)
    : call(op, l, r, type)

/** `l op r`. */
export function binary(ctx: EmitContext, op: BinaryOp, l: Emitted, r: Emitted): Emitted {
  const ints = l.type === 'int' && r.type === 'int'
  const nums = isNumber(l) && isNumber(r)
  switch (op) {
    case '+':
    case '-':
    case '*':
      if (nums) return emitted(`(${l.code} ${op} ${r.code})`, ints ? 'int' : 'num')
      if (op === '+' && l.type === 'text' && r.type === 'text')
        return emitted(`(${l.code} + ${r.code})`, 'text')
      return guarded(ctx, op, l, r, `${op}`)
    case '/':
      if (nums) return emitted(`(${l.code} / ${r.code})`, 'num')
      return guarded(ctx, op, l, r, '/')
    case '%':
      return modulo(ctx, l, r)
    case '=':
    case '#':
    case '<':
    case '>':
    case '<=':
    case '>=':
      if (op === '=' || op === '#') {
        const nullTest = againstNull(op, l, r)
        if (nullTest !== undefined) return nullTest
      }
      // Integers compare exactly; reals within the epsilon, texts folded: the runtime's.
      if (ints) return emitted(`(${l.code} ${JS_COMPARE[op]} ${r.code})`, 'bool')
      return mayBeTexts(l, r) ? stepping(ctx, op, l, r, 'bool') : call(op, l, r)
    case '&':
    case '|':
      if (l.type === 'bool' && r.type === 'bool') {
        // Both operands are evaluated (unlike && and ||).
        const { pre, a, b } = bindBoth(ctx, l, r)
        return emitted(`(${pre}${a.code} ${op}${op} ${b.code})`, 'bool')
      }
      return call(op, l, r, 'int')
    case '\\':
    case '^':
      return call(op, l, r, 'num')
    default:
      return call(op, l, r, 'int')
  }
}

/**
 * `a = Null`, `a # Null` (either side): Null equals Null and Undefined and nothing else, whatever
 * the other operand (compare.ts, never an error), which is JavaScript's `== null`.
 */
function againstNull(op: '=' | '#', l: Emitted, r: Emitted): Emitted | undefined {
  const other = l.code === 'null' ? r : r.code === 'null' ? l : undefined
  if (other === undefined) return undefined
  return emitted(`(${other.code} ${op === '=' ? '==' : '!='} null)`, 'bool')
}

// The number test inlined: `typeof a === "number" && typeof b === "number" ? a op b : rt.op(a, b)`.
function guarded(ctx: EmitContext, op: BinaryOp, l: Emitted, r: Emitted, js: string): Emitted {
  const never = (e: Emitted): boolean => e.type === 'text' || e.type === 'bool'
  if (never(l) || never(r)) return call(op, l, r)
  const { pre, a, b } = bindBoth(ctx, l, r)
  const tests = [a, b].filter((e) => !isNumber(e)).map((e) => `typeof ${e.code} === "number"`)
  return emitted(
    `(${pre}${tests.join(' && ')} ? ${a.code} ${js} ${b.code} : rt.${CALLS[op]}(${a.code}, ${b.code}))`,
  )
}

/**
 * `%` on numbers is the remainder of two longs (arithmetic.ts): with a divisor that is a
 * non-zero integer literal and a dividend that is an integer, `(a | 0) % k | 0` says the same
 * (`| 0` keeps the low 32 bits as 4D's long does, and makes -0 a 0).
 */
function modulo(ctx: EmitContext, l: Emitted, r: Emitted): Emitted {
  const k = /^\d+$/.test(r.code) ? Number(r.code) : NaN
  if (!(k > 0 && k <= 0x7fffffff))
    return mayBeTexts(l, r) ? stepping(ctx, '%', l, r, 'int') : call('%', l, r, 'int')
  if (l.type === 'int') return emitted(`((${l.code} | 0) % ${k} | 0)`, 'int')
  const { pre, a } = bindBoth(ctx, l, r)
  return emitted(
    `(${pre}typeof ${a.code} === "number" && (${a.code} | 0) === ${a.code} ? ${a.code} % ${k} | 0 : rt.mod(${a.code}, ${k}))`,
  )
}

/** `-a`. */
export function negate(ctx: EmitContext, e: Emitted): Emitted {
  if (isNumber(e)) return emitted(`(-${e.code})`, e.type)
  return emitted(`rt.neg(${e.code})`)
}

/** `a && b`, `a || b`: the operand that decides, by truthiness; `b` evaluated only if needed. */
export function andOr(ctx: EmitContext, op: '&&' | '||', l: Emitted, r: Emitted): Emitted {
  if (l.type === 'bool' && r.type === 'bool') return emitted(`(${l.code} ${op} ${r.code})`, 'bool')
  const t = ctx.temp()
  const type = l.type === r.type ? l.type : 'any'
  return op === '&&'
    ? emitted(`(rt.truthy(${t} = ${l.code}) ? ${r.code} : ${t})`, type)
    : emitted(`(rt.truthy(${t} = ${l.code}) ? ${t} : ${r.code})`, type)
}

/** `test ? a : b`, by the test's truthiness. */
export function ternary(test: Emitted, a: Emitted, b: Emitted): Emitted {
  const t = test.type === 'bool' ? test.code : `rt.truthy(${test.code})`
  return emitted(`(${t} ? ${a.code} : ${b.code})`, a.type === b.type ? a.type : 'any')
}

/** A condition of `If`, `Case of`, `While`, `Until`: a Boolean (Undefined and Null are False). */
export const condition = (e: Emitted): string => (e.type === 'bool' ? e.code : `rt.cond(${e.code})`)

/** The operator of a compound assignment (`+=`…): `target op= value` is `target := target op value`. */
export const COMPOUND: Readonly<Record<Exclude<AssignNode['op'], ':='>, BinaryOp>> = {
  '+=': '+',
  '-=': '-',
  '*=': '*',
  '/=': '/',
}
