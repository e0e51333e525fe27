/**
 * @module The loops (docs/Concepts/cf_looping.md), each a JavaScript loop so that `break` and
 * `continue` are JavaScript's, with the budget decremented at each pass:
 * - `For`: start, end and step evaluated once when the loop starts ("changing one of these
 *   variables within the loop will not affect the loop"), the counter tested and stepped as
 *   itself, so that changing it in the loop does; it ends one step past the end, as `While` would;
 * - `For each`: the passes fixed at the start (iterate.ts), the item assigned as its variable's
 *   type says; `While` tested at the start of each pass (after the item is assigned), `Until` at
 *   the end of each, `continue` included;
 * - `While` and `Repeat…Until`.
 */
import type { AssignableNode } from '../../ast/expressions.js'
import type {
  ForEachNode,
  ForNode,
  RepeatNode,
  StatementNode,
  WhileNode,
} from '../../ast/statements.js'
import type { Slot } from '../analysis.js'
import type { EmitContext } from './context.js'
import { converted, emitted, isNumber, staticTypeOf, type Emitted } from './emitted.js'
import { expr } from './expressions.js'
import { keepsLoopItem } from './loop-item.js'
import { condition } from './operators.js'
import { quote } from './quote.js'

type Block = (statements: readonly StatementNode[]) => void

/** The budget's decrement, at each pass (a stop too, in a generator: context.ts). */
const tick = (ctx: EmitContext): string => ctx.tick()

/** How a loop variable is read and assigned: a slot, or a process variable. */
interface LoopVariable {
  readonly read: Emitted
  write(value: Emitted): string
  /** The local, when it is one. */
  readonly slot?: Slot
}

function loopVariable(ctx: EmitContext, target: AssignableNode): LoopVariable | undefined {
  const resolved = ctx.analysis.resolved.get(target)
  if (resolved?.kind === 'slot') {
    const slot = resolved.slot
    const read = emitted(`v${slot.id}`, staticTypeOf(slot.type), true)
    return { read, write: (value) => `v${slot.id} = ${converted(slot.type, value)}`, slot }
  }
  if (target.kind === 'Name') {
    const name = quote(target.name)
    return {
      read: emitted(`rt.pvGet(${name})`),
      write: (value) => `rt.pvSet(${name}, ${value.code})`,
    }
  }
  return undefined
}

const bound = (e: Emitted): string => (isNumber(e) ? e.code : `rt.forBound(${e.code})`)

/** A literal number's value as code writes it (`1`, `(-1)`), NaN for anything else. */
const literal = (e: Emitted): number =>
  /^\(?-?\d+(\.\d+)?\)?$/.test(e.code) ? Number(e.code.replace(/[()]/g, '')) : NaN

export function forLoop(ctx: EmitContext, node: ForNode, block: Block): void {
  const counter = loopVariable(ctx, node.counter)
  if (counter === undefined) {
    ctx.w.write(`rt.unsupported("A For counter that is not a variable");`)
    return
  }
  const start = expr(ctx, node.start)
  const end = expr(ctx, node.end)
  const step = node.step === null ? emitted('1', 'int', true) : expr(ctx, node.step)
  const pre: string[] = []
  const once = (e: Emitted): Emitted => {
    if (!Number.isNaN(literal(e))) return e
    const l = ctx.longTemp()
    pre.push(`${l} = ${bound(e)}`)
    return emitted(l, isNumber(e) ? e.type : 'num', true)
  }
  // Evaluated once, in 4D's order: start, end, step.
  const first = once(start)
  const last = once(end)
  const by = once(step)
  const cur = isNumber(counter.read)
    ? counter.read.code
    : `(typeof ${counter.read.code} === "number" ? ${counter.read.code} : rt.forBound(${counter.read.code}))`
  const sign = literal(by)
  const test =
    sign > 0
      ? `${cur} <= ${last.code}`
      : sign < 0
        ? `${cur} >= ${last.code}`
        : `(${by.code} >= 0 ? ${cur} <= ${last.code} : ${cur} >= ${last.code})`
  const next = emitted(
    `(${cur} + ${by.code})`,
    counter.read.type === 'int' && by.type === 'int' ? 'int' : 'num',
  )
  pre.push(counter.write(first))
  ctx.w.write(`for (${pre.join(', ')}; ${test}; ${counter.write(next)}) { ${tick(ctx)}`)
  block(node.body)
  ctx.w.write('}')
}

export function forEachLoop(ctx: EmitContext, node: ForEachNode, block: Block): void {
  const item = loopVariable(ctx, node.item)
  if (item === undefined) {
    ctx.w.write(`rt.unsupported("A For each item that is not a variable");`)
    return
  }
  const it = ctx.longTemp()
  const i = ctx.longTemp()
  const range = [node.source, node.begin, node.end]
    .filter((n) => n !== null)
    .map((n) => expr(ctx, n).code)
  const until = node.until === null ? null : condition(expr(ctx, node.until))
  const whileTest = node.while === null ? null : condition(expr(ctx, node.while))
  const next = until === null ? `${i} + 1` : `(${until} ? ${it}.end : ${i} + 1)`
  ctx.w.write(
    `for (${it} = rt.iterate(${range.join(', ')}), ${i} = ${it}.start; ${i} < ${it}.end; ${i} = ${next}) {`,
  )
  // A local the loop keeps nowhere may be given the same object at each pass (loop-item.ts).
  const at =
    item.slot !== undefined && !keepsLoopItem(ctx.analysis, node, item.slot) ? 'reused' : 'at'
  ctx.w.write(`${item.write(emitted(`${it}.${at}(${i})`))};`)
  if (whileTest !== null) ctx.w.write(`if (!${whileTest}) break;`)
  ctx.w.write(tick(ctx))
  block(node.body)
  ctx.w.write('}')
}

export function whileLoop(ctx: EmitContext, node: WhileNode, block: Block): void {
  ctx.w.write(`while (${condition(expr(ctx, node.test))}) { ${tick(ctx)}`)
  block(node.body)
  ctx.w.write('}')
}

export function repeatLoop(ctx: EmitContext, node: RepeatNode, block: Block): void {
  ctx.w.write(`do { ${tick(ctx)}`)
  block(node.body)
  ctx.w.at(node.until.loc.start.line)
  ctx.statement()
  const line = ctx.options.lines ? `ln = ${node.until.loc.start.line}, ` : ''
  ctx.w.write(`} while (${line}!${condition(expr(ctx, node.until))});`)
}
