/**
 * @module 4D statements as JavaScript statements, each on the line of its 4D line (writer.ts).
 * Assignments convert to the variable's declared type (an Integer keeps 32 bits), conditions are
 * Booleans (`rt.cond`), `Case of` is an `if … else if` chain (so `break` in it leaves the loop
 * around it), `Try` catches into `Last errors`, `throw` goes through the runtime (deferred errors
 * wait for the method's return), and a line that did not parse raises its syntax error when
 * reached, as in 4D's interpreter.
 */
import type {
  AssignNode,
  BinaryOp,
  InterprocessVarNode,
  LocalNode,
  NameNode,
  ParamNode,
} from '../../ast/expressions.js'
import type { StatementNode, TryNode, UseNode } from '../../ast/statements.js'
import type { EmitContext } from './context.js'
import { converted, emitted, type Emitted } from './emitted.js'
import { expr, readInto, stepping, targetRead } from './expressions.js'
import { forEachLoop, forLoop, repeatLoop, whileLoop } from './loops.js'
import { binary, COMPOUND, condition } from './operators.js'
import { quote } from './quote.js'
import { assignment } from './variables.js'

export function block(ctx: EmitContext, statements: readonly StatementNode[]): void {
  for (const s of statements) statement(ctx, s)
}

/** The statements after which code goes on when an error-handling method handled their error. */
const TRAPPED: ReadonlySet<StatementNode['kind']> = new Set([
  'Var',
  'Assign',
  'ExprStmt',
  'Return',
  'Throw',
  'If',
  'CaseOf',
  'For',
  'ForEach',
  'While',
  'Repeat',
  'Use',
])

/**
 * A statement; in a unit that calls `ON ERR CALL` (outside a `Try`, which catches first), inside
 * a `try` whose `catch` gives the error to the installed error-handling method and goes on with
 * the next statement, or throws it on when none is installed (the runtime's `trapped`).
 */
export function statement(ctx: EmitContext, node: StatementNode): void {
  if (!ctx.analysis.trapsErrors || ctx.tries > 0 || !TRAPPED.has(node.kind))
    return plainStatement(ctx, node)
  const line = node.loc.start.line
  ctx.w.at(line).write('try {')
  plainStatement(ctx, node)
  const e = ctx.catchName()
  ctx.w.write(
    `} catch (${e}) { rt.trapped(${e}, ${quote(ctx.unit.name)}, ${quote(ctx.unit.file)}, ${line}); }`,
  )
}

function plainStatement(ctx: EmitContext, node: StatementNode): void {
  const { analysis, w } = ctx
  const line = node.loc.start.line
  w.at(line)
  ctx.statement()
  if (ctx.options.lines) w.write(`ln = ${line};`)
  const invalid = analysis.invalid.get(node)
  if (invalid !== undefined) {
    w.write(`rt.syntaxError(${quote(invalid)});`)
    return
  }
  for (const { name, type } of analysis.processDeclarations.get(node) ?? [])
    w.write(`rt.pvDeclare(${quote(name)}, ${quote(type)});`)
  if (analysis.skip.has(node)) return
  const sub = (statements: readonly StatementNode[]): void => block(ctx, statements)
  switch (node.kind) {
    case 'Var':
      if (node.init !== null) {
        const value = expr(ctx, node.init)
        for (const name of node.names) if (name.kind !== 'IndirectParam') assignTo(ctx, name, value)
      }
      return
    case 'Declare':
      return
    case 'Assign':
      return assign(ctx, node)
    case 'ExprStmt':
      w.write(`${expr(ctx, node.expr).code};`)
      return
    case 'Return':
      return returnStatement(ctx, node.value === null ? null : expr(ctx, node.value))
    case 'Break':
      w.write('break;')
      return
    case 'Continue':
      w.write('continue;')
      return
    case 'Throw':
      w.write(`rt.throwError(${['df', ...node.args.map((a) => expr(ctx, a).code)].join(', ')});`)
      return
    case 'If':
      w.write(`if (${condition(expr(ctx, node.test))}) {`)
      sub(node.then)
      if (node.else !== null) {
        w.write('} else {')
        sub(node.else)
      }
      w.write('}')
      return
    case 'CaseOf':
      node.branches.forEach((branch, i) => {
        const at = branch.loc.start.line
        w.at(at)
        ctx.statement()
        const test = condition(expr(ctx, branch.test))
        const tracked = ctx.options.lines ? `(ln = ${at}, ${test})` : test
        w.write(`${i === 0 ? '' : '} else '}if (${tracked}) {`)
        sub(branch.body)
      })
      if (node.else !== null) {
        w.write(node.branches.length === 0 ? '{' : '} else {')
        sub(node.else)
      }
      if (node.branches.length > 0 || node.else !== null) w.write('}')
      return
    case 'For':
      return forLoop(ctx, node, sub)
    case 'ForEach':
      return forEachLoop(ctx, node, sub)
    case 'While':
      return whileLoop(ctx, node, sub)
    case 'Repeat':
      return repeatLoop(ctx, node, sub)
    case 'Try':
      return tryStatement(ctx, node)
    case 'Use':
      return useBlock(ctx, node, sub)
    case 'Unparsed':
      w.write(`rt.syntaxError(${quote(`${node.message}: ${node.text.trim()}`)});`)
      return
    case 'EmbeddedSql':
      w.write(`rt.notRunnable(${quote('Begin SQL')});`)
      return
    default: {
      const unknown: never = node
      throw new Error(`emit: unknown statement ${(unknown as StatementNode).kind}`)
    }
  }
}

/** `target := value`, and `target op= value` as `target := target op value` (operators.md). */
function assign(ctx: EmitContext, node: AssignNode): void {
  const { target } = node
  const op = node.op === ':=' ? undefined : COMPOUND[node.op]
  const value = (current: () => Emitted): Emitted =>
    op === undefined ? expr(ctx, node.value) : binary(ctx, op, current(), expr(ctx, node.value))
  switch (target.kind) {
    case 'Member':
    case 'Index': {
      // The object (and key) evaluated once, before the value.
      const keep = (e: Emitted): Emitted => (op === undefined ? e : bound(ctx, e))
      const object = keep(expr(ctx, target.object))
      const key = target.kind === 'Member' ? quote(target.name) : keep(expr(ctx, target.index)).code
      const v = value(() => targetRead(ctx, target, object.code, key))
      // In a generator, in steps when its host has work there (an entity's `touched` events).
      ctx.w.write(`${stepping(ctx, 'set', 'setSteps', `${object.code}, ${key}, ${v.code}`)};`)
      return
    }
    case 'ArrayElement': {
      // `$a{i}:=v`: the array and the index evaluated once, the value made the array's type.
      const keep = (e: Emitted): Emitted => (op === undefined ? e : bound(ctx, e))
      const array = keep(expr(ctx, target.array)).code
      const index = keep(expr(ctx, target.index)).code
      const v = value(() => emitted(`rt.elem(${array}, ${index})`))
      ctx.w.write(`rt.setElem(${array}, ${index}, ${v.code});`)
      return
    }
    case 'Deref': {
      // `$p->:=v`: the pointer evaluated once, the value put through it (its variable's type).
      const keep = (e: Emitted): Emitted => (op === undefined ? e : bound(ctx, e))
      const pointer = keep(expr(ctx, target.pointer)).code
      const v = value(() => emitted(`rt.deref(${pointer})`))
      ctx.w.write(`rt.derefSet(${pointer}, ${v.code});`)
      return
    }
    case 'Local':
    case 'Param':
    case 'Name':
    case 'InterprocessVar':
      return assignTo(
        ctx,
        target,
        (op === undefined ? readInto(ctx, target, node.value) : undefined) ??
          value(() => expr(ctx, target)),
      )
    case 'CharAt': {
      // `$t[[i]]:=c`: the variable takes its text with that character replaced (dt_string.md);
      // the compound operators do not apply to a character (operators.md).
      const text = target.text
      if (op === undefined && VARIABLE_KINDS.has(text.kind)) {
        const replaced = `rt.withChar(${expr(ctx, text).code}, ${expr(ctx, target.index).code}, ${expr(ctx, node.value).code})`
        return assignTo(ctx, text as VariableNode, emitted(replaced))
      }
      ctx.w.write(`rt.unsupported(${quote(`Assigning ${article(target.kind)}`)});`)
      return
    }
    default:
      ctx.w.write(`rt.unsupported(${quote(`Assigning ${article(target.kind)}`)});`)
  }
}

const VARIABLE_KINDS: ReadonlySet<string> = new Set(['Local', 'Param', 'Name', 'InterprocessVar'])

const article = (kind: string): string =>
  kind === 'IndirectParam'
    ? 'a parameter by its number'
    : kind === 'CharAt'
      ? 'a character of a text'
      : `a ${kind.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`

type VariableNode = LocalNode | ParamNode | NameNode | InterprocessVarNode

/** A value into a variable of the unit, or a process or interprocess variable. */
function assignTo(ctx: EmitContext, target: VariableNode, value: Emitted): void {
  const code = assignment(ctx, target, value)
  if (code === undefined) throw new Error('emit: a variable without a slot')
  ctx.w.write(code)
}

/** An expression made safe to write twice (into a temporary when it is not). */
function bound(ctx: EmitContext, e: Emitted): Emitted {
  if (e.pure) return e
  const t = ctx.temp()
  ctx.w.write(`${t} = ${e.code};`)
  return emitted(t, e.type, true)
}

/** `return {expr}`: the value goes to the result variable when there is one (parameters.md). */
function returnStatement(ctx: EmitContext, value: Emitted | null): void {
  const result = ctx.analysis.result
  const slot = result === undefined ? undefined : `v${result.id}`
  if (value === null) ctx.w.write(`return ${slot ?? 'void 0'};`)
  else if (slot === undefined) ctx.w.write(`return ${value.code};`)
  else ctx.w.write(`return ${slot} = ${converted(result!.type, value)};`)
}

/**
 * `Use (target) … End use`: the lock of the target's shared group, held by the call until the
 * block's end, however it ends (runtime/context/use-lock.ts); what the block writes is shared
 * state, told to core (outside-state.ts). In a generator the block stops at its checks as any
 * code, and a `Use` that meets the group held by another call waits in steps (`useWait`); a
 * plain function cannot wait (`useBegin` refuses).
 */
function useBlock(
  ctx: EmitContext,
  node: UseNode,
  sub: (b: readonly StatementNode[]) => void,
): void {
  const { w } = ctx
  const held = ctx.longTemp()
  const target = expr(ctx, node.target).code
  if (ctx.yields) {
    const t = ctx.temp()
    // What the block entered last goes back in: one watch on it a call, not an entry (a loop).
    w.write(
      `${held} = rt.useTry(${t} = ${target}, ${held}) ?? (yield* rt.useWait(${t}, ${held})); try {`,
    )
  } else w.write(`${held} = rt.useBegin(${target}); try {`)
  sub(node.body)
  w.write(`} finally { rt.useEnd(${held}); }`)
}

/**
 * `Try … Catch … End try` (error-handling.md): an error in the block runs `Catch` (or is dropped
 * without one), `Last errors` holding it; a deferred error thrown in the block itself is dropped
 * at its end (kept in `Last errors`), without `Catch`.
 */
function tryStatement(ctx: EmitContext, node: TryNode): void {
  const { w } = ctx
  const e = ctx.catchName()
  const mark = ctx.analysis.hasThrow ? ctx.longTemp() : undefined
  w.write(`try { rt.tryStart();${mark === undefined ? '' : ` ${mark} = df.length;`}`)
  ctx.tries++
  block(ctx, node.body)
  ctx.tries--
  if (mark !== undefined) w.write(`df.length = ${mark};`)
  const line = ctx.options.lines ? 'ln' : '0'
  w.write(
    `} catch (${e}) { rt.caught(${e}, ${quote(ctx.unit.name)}, ${quote(ctx.unit.file)}, ${line});`,
  )
  block(ctx, node.catch ?? [])
  w.write('}')
}
