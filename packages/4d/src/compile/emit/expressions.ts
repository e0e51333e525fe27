/**
 * @module 4D expressions as JavaScript expressions. Variables are the unit's slots (`v3`), members
 * go through the runtime (`rt.get(o, "name")`, which never reaches what JavaScript inherits; a
 * member by its name at a site that keeps its reader: `rt.getAt(s0, o, "name")`),
 * texts and names of the 4D source appear only as quoted literals, commands are
 * `rt.k[number](rt, …)`, and what cannot run becomes a call that raises a 4D error when reached.
 */
import type { AssignNode, ExprNode, FormulaNode } from '../../ast/expressions.js'
import { walk } from '../../ast/walk.js'
import type { Resolution, Slot } from '../analysis.js'
import type { EmitContext } from './context.js'
import { emitted, type Emitted, type StaticType } from './emitted.js'
import { keepsFirstParam } from './formula-param.js'
import { assertion } from './assertion.js'
import { andOr, binary, COMPOUND, negate, ternary } from './operators.js'
import { numberLiteral, quote } from './quote.js'
import { reusesLocal } from './reused-local.js'
import { assignment, captured, outArgument, variable } from './variables.js'

const RESULT_TYPES: Readonly<Record<string, StaticType>> = {
  Integer: 'int',
  Real: 'num',
  Text: 'text',
  Boolean: 'bool',
}

/**
 * `object.name` (`name` quoted), read at a site of its own; in a generator, in steps when its host
 * has work to run first (an entity's relation: runtime/context/step-calls.ts `getAtSteps`).
 */
export const memberRead = (ctx: EmitContext, object: string, name: string): Emitted =>
  emitted(stepping(ctx, 'getAt', 'getAtSteps', `${ctx.site()}, ${object}, ${name}`))

/**
 * `$local:=object.name` for a local that keeps nothing it is given (reused-local.ts): the read
 * gives the object it gave this call the last time, pointed at the new value, when its host can
 * (member-sites.ts `getInto`; `l0` the call's own, so a recursive call has its own).
 */
export function readInto(ctx: EmitContext, target: ExprNode, value: ExprNode): Emitted | undefined {
  if (value.kind !== 'Member' || ctx.analysis.invalid.has(value)) return undefined
  const resolved = ctx.analysis.resolved.get(target)
  if (resolved?.kind !== 'slot' || !reusesLocal(ctx.analysis, resolved.slot)) return undefined
  const into = ctx.longTemp()
  const args = `${ctx.site()}, ${objectOf(ctx, value.object, value.name)}, ${quote(value.name)}, ${into}`
  return emitted(`(${into} = ${stepping(ctx, 'getInto', 'getIntoSteps', args)})`)
}

/**
 * `rt.sync(args)`, in a generator `rt.steps(args)`, which answers its value, or `rt.LATER` when
 * work is to run first in steps (`yield* rt.later()` then gives the value): for the members read
 * and assigned at every pass of a loop, a test of one constant rather than `instanceof`.
 */
export function stepping(ctx: EmitContext, sync: string, steps: string, args: string): string {
  if (!ctx.yields) return `rt.${sync}(${args})`
  const t = ctx.temp()
  return `((${t} = rt.${steps}(${args})) === rt.LATER ? (yield* rt.later()) : ${t})`
}

/** The current value of an assigned `object.name` or `object[key]` (`key` the code of either). */
export const targetRead = (
  ctx: EmitContext,
  target: { readonly kind: string },
  object: string,
  key: string,
): Emitted =>
  target.kind === 'Member' ? memberRead(ctx, object, key) : emitted(`rt.get(${object}, ${key})`)

export function expr(ctx: EmitContext, node: ExprNode): Emitted {
  const invalid = ctx.analysis.invalid.get(node)
  if (invalid !== undefined) return emitted(`rt.syntaxError(${quote(invalid)})`)
  const resolved = ctx.analysis.resolved.get(node)
  switch (node.kind) {
    case 'Text':
      return emitted(quote(node.value), 'text', true)
    case 'Number':
      return emitted(
        numberLiteral(node.value),
        Number.isInteger(node.value) && !/[.eE]/.test(node.raw) ? 'int' : 'num',
        true,
      )
    case 'Date':
      return emitted(
        ctx.constant(`rt.dateOf(${node.year}, ${node.month}, ${node.day})`),
        'any',
        true,
      )
    case 'Time':
      return emitted(ctx.constant(`rt.timeOf(${numberLiteral(node.seconds)})`), 'any', true)
    case 'Bool':
      return emitted(node.value ? 'true' : 'false', 'bool', true)
    case 'Null':
      return emitted('null', 'any', true)
    case 'Local':
    case 'Param':
      return variable(ctx, resolved)
    case 'IndirectParam':
      return indirectParam(ctx, expr(ctx, node.index))
    case 'Name':
      return emitted(
        resolved?.kind === 'process'
          ? `rt.pvGet(${quote(node.name)})`
          : `rt.nameValue(${quote(node.name)})`,
      )
    case 'InterprocessVar':
      return emitted(`rt.ipGet(${quote(node.name)})`)
    case 'Member':
      return memberRead(ctx, objectOf(ctx, node.object, node.name), quote(node.name))
    case 'Index':
      return indexRead(ctx, node.object, node.index)
    case 'CharAt':
      return emitted(
        `rt.charAt(${expr(ctx, node.text).code}, ${expr(ctx, node.index).code})`,
        'text',
      )
    case 'Call':
      return callExpr(ctx, node.callee, node.args)
    case 'MethodCall':
      if (resolved?.kind === 'intrinsic') return emitted('void 0', 'any', true)
      return emitted(
        ctx.calling('method', 'methodSteps', `${quote(node.name)}, ${args(ctx, node.args)}`),
      )
    case 'Command':
      return command(ctx, resolved, node.args ?? [])
    case 'Constant':
      return resolved?.kind === 'constant'
        ? typeof resolved.value === 'number'
          ? emitted(numberLiteral(resolved.value), 'num', true)
          : emitted(quote(resolved.value), 'text', true)
        : notRunnable(resolved, node.name)
    case 'Binary':
      return binary(ctx, node.op, expr(ctx, node.left), expr(ctx, node.right))
    case 'Unary': {
      const operand = expr(ctx, node.operand)
      return node.op === '-' ? negate(ctx, operand) : operand
    }
    case 'AndOr':
      return andOr(ctx, node.op, expr(ctx, node.left), expr(ctx, node.right))
    case 'Ternary':
      return ternary(expr(ctx, node.test), expr(ctx, node.consequent), expr(ctx, node.alternate))
    case 'ObjectLiteral':
      return emitted(
        `rt.objectOf(${node.props.map((p) => `${quote(p.key)}, ${expr(ctx, p.value).code}`).join(', ')})`,
      )
    case 'CollectionLiteral':
      return emitted(`rt.collectionOf(${node.items.map((i) => expr(ctx, i).code).join(', ')})`)
    case 'This':
      return emitted('th', 'any', true)
    case 'Super':
      return node.args === null
        ? emitted(`rt.unsupported("Super as a value")`)
        : emitted(`rt.superConstruct(cx, th, ${args(ctx, node.args)})`)
    case 'ClassStore':
      return emitted(node.store === 'cs' ? 'rt.cs' : 'rt.fourD', 'any', true)
    case 'Ds':
      return resolved?.kind === 'not-runnable' ? notRunnable(resolved, 'ds') : emitted('rt.ds')
    case 'Formula':
      return formula(ctx, node)
    case 'TryExpr':
      return tryExpr(ctx, expr(ctx, node.body))
    case 'SymbolArg':
      return emitted(`rt.sym[${quote(node.symbol)}]`, 'any', true)
    case 'ArrayElement':
      return emitted(`rt.elem(${expr(ctx, node.array).code}, ${expr(ctx, node.index).code})`)
    case 'PointerTo':
      return resolved?.kind === 'not-runnable'
        ? notRunnable(resolved, 'A pointer')
        : pointerTo(ctx, node.target)
    case 'Deref':
      return emitted(`rt.deref(${expr(ctx, node.pointer).code})`)
    case 'Field':
    case 'Table':
      return notRunnable(resolved, node.kind)
    default: {
      const unknown: never = node
      throw new Error(`emit: unknown expression ${(unknown as ExprNode).kind}`)
    }
  }
}

function notRunnable(resolved: Resolution | undefined, name: string): Emitted {
  if (resolved?.kind !== 'not-runnable') return emitted(`rt.notRunnable(${quote(name)})`)
  const raise = resolved.construct === true ? 'unsupported' : 'notRunnable'
  return emitted(`rt.${raise}(${quote(resolved.name)})`)
}

/** `${n}`: parameter n, the named one's variable when n names one. */
function indirectParam(ctx: EmitContext, index: Emitted): Emitted {
  const t = ctx.temp()
  const n = `${t} = rt.toInteger(${index.code})`
  if (ctx.frame !== null) return emitted(`(${n}, ag[${t} - 1])`)
  const named = ctx.analysis.params
    .map((slot, i) => (slot === undefined ? '' : `${t} === ${i + 1} ? v${slot.id} : `))
    .join('')
  return emitted(`(${n}, ${named}ag[${t} - 1])`)
}

/**
 * `object[key]`: `rt.get`; in a generator, by a literal text key, the member read it is (`get` and
 * `getAt` read a text key alike), so that `$e["heavy"]` goes into work its host has to run first
 * as `$e.heavy` does (a getter's call, a relation's restrict); by a key known only as it runs
 * (`$e[$name]`) `rt.getSteps`, which asks the host the same once the key is known; by a literal
 * number (an element: no host's member), `rt.get`.
 */
function indexRead(ctx: EmitContext, object: ExprNode, key: ExprNode): Emitted {
  const target = expr(ctx, object).code
  if (ctx.yields && key.kind === 'Text' && !ctx.analysis.invalid.has(key))
    return memberRead(ctx, target, quote(key.value))
  const code = `${target}, ${expr(ctx, key).code}`
  return emitted(key.kind === 'Number' ? `rt.get(${code})` : stepping(ctx, 'get', 'getSteps', code))
}

/**
 * The code of `object` whose `member` is read or called: `cs.X` there is `rt.csOf`, which raises
 * naming the class or the component when the project has no class X (`cs.AIKit.OpenAI.new()`).
 */
function objectOf(ctx: EmitContext, object: ExprNode, member: string): string {
  return object.kind === 'Member' &&
    object.object.kind === 'ClassStore' &&
    object.object.store === 'cs' &&
    !ctx.analysis.invalid.has(object)
    ? `rt.csOf(${quote(object.name)}, ${quote(member)})`
    : expr(ctx, object).code
}

/** The arguments of a call, as a new array. */
export const args = (ctx: EmitContext, list: readonly ExprNode[]): string =>
  `[${list.map((a) => expr(ctx, a).code).join(', ')}]`

function callExpr(ctx: EmitContext, callee: ExprNode, list: readonly ExprNode[]): Emitted {
  if (callee.kind === 'Member') {
    if (callee.object.kind === 'Super')
      return ctx.analysis.invalid.has(callee.object)
        ? expr(ctx, callee.object)
        : emitted(
            ctx.calling(
              'superCall',
              'superCallSteps',
              `cx, th, ${quote(callee.name)}, ${args(ctx, list)}`,
            ),
          )
    return emitted(
      ctx.calling(
        'callAt',
        'callAtSteps',
        `${ctx.callSite()}, ${objectOf(ctx, callee.object, callee.name)}, ${quote(callee.name)}, ${args(ctx, list)}`,
      ),
    )
  }
  if (callee.kind === 'Index')
    return emitted(
      ctx.calling(
        'call',
        'callSteps',
        `${expr(ctx, callee.object).code}, ${expr(ctx, callee.index).code}, ${args(ctx, list)}`,
      ),
    )
  return emitted(`rt.unsupported("A call of this expression")`)
}

type CommandEntry = Extract<Resolution, { kind: 'command' }>['entry']

function commandCall(ctx: EmitContext, entry: CommandEntry, list: readonly ExprNode[]): Emitted {
  const seen = assertion(ctx, entry.number, list, expr)
  if (seen !== undefined) return seen
  const writes = entry.writes ?? []
  const codes = list.map(
    (a, i) => (writes.includes(i) ? outArgument(ctx, a, (n) => expr(ctx, n)) : expr(ctx, a)).code,
  )
  const type = RESULT_TYPES[entry.parsed?.result ?? 'other'] ?? 'any'
  const call = `(${['rt', ...codes].join(', ')})`
  // A command written as steps too (values/work.ts): a generator goes into them.
  if (ctx.yields && entry.steps !== undefined)
    return emitted(`(yield* rt.ks[${entry.number}]${call})`, type)
  return emitted(`rt.k[${entry.number}]${call}`, type)
}

function command(
  ctx: EmitContext,
  resolved: Resolution | undefined,
  list: readonly ExprNode[],
): Emitted {
  switch (resolved?.kind) {
    case 'command': {
      const call = commandCall(ctx, resolved.entry, list)
      // assert.md, set-assert-enabled.md: with the assertions off, ASSERT's expressions are not
      // evaluated: the call only when `Get assert enabled` (1130) says they are on.
      return resolved.entry.number === 1129
        ? emitted(`(rt.k[1130](rt) ? ${call.code} : undefined)`)
        : call
    }
    case 'intrinsic':
      switch (resolved.name) {
        case 'count-parameters':
          return emitted('ag.length', 'int')
        case 'current-method-name':
          return emitted(quote(ctx.unit.name), 'text', true)
        case 'copy-parameters': {
          // `Copy parameters{(startFrom)}`: a new collection of the parameters from startFrom.
          const from = list[0] === undefined ? '1' : expr(ctx, list[0]).code
          return emitted(`rt.collectionOf(...ag.slice(Math.max(0, Math.trunc(${from}) - 1)))`)
        }
        default:
          return emitted('void 0', 'any', true)
      }
    default:
      return notRunnable(resolved, 'command')
  }
}

/**
 * `Formula(expr)`: a function object over the expression, generated as a function inside the
 * unit's; the locals it reads are copied when the formula is made (as 4D does), passed as `cx`.
 */
function formula(ctx: EmitContext, node: FormulaNode): Emitted {
  const captures: Slot[] = []
  let calls = false
  let reads = false
  walk(node.body, (n) => {
    const r = ctx.analysis.resolved.get(n)
    if (r?.kind === 'captured' && !captures.includes(r.slot)) captures.push(r.slot)
    if (n.kind === 'Call' || n.kind === 'MethodCall') calls = true
    if (n.kind === 'Member' || n.kind === 'Index') reads = true
  })
  const copies = captures.map((slot) => captured(ctx, slot))
  const made = node.body
  const source = ctx.analysis.text.slice(node.body.loc.start.offset, node.body.loc.end.offset)
  // A formula that keeps its $1 nowhere may be given the same one for each element; one that
  // assigns (`Formula($1.accumulator*=$1.value)`) gets its own each time.
  const lends = made.kind === 'Assign' || keepsFirstParam(made) ? 'false' : 'true'
  const plain = formulaBody(ctx, node, captures, calls, false)
  // Made in a unit's generator, a formula that calls something has its steps too: a collection
  // function given it in a call in slices (`.map(Formula(heavy($1)))`) goes into them, and a
  // long callee holds no other client. One that calls nothing cannot run long by itself, but
  // for what a member it reads runs (`Formula($1.value.heavy)`: an entity's getter): it has its
  // steps too, which a loop goes into only over elements that are such hosts (`forHosts`).
  const steps =
    ctx.yields && (calls || reads)
      ? `, function* (rt, th, ag, cx) { ${formulaBody(ctx, node, captures, calls, true)} }${calls ? '' : ', true'}`
      : ''
  return emitted(
    `rt.formula(${quote(source)}, function (rt, th, ag, cx) { ${plain} }, [${copies.join(', ')}], ${lends}${steps})`,
  )
}

/** The body of a formula's function, or of its generator (`yields`). */
function formulaBody(
  ctx: EmitContext,
  node: FormulaNode,
  captures: Slot[],
  calls: boolean,
  yields: boolean,
): string {
  const made = node.body
  const { result, temps } = ctx.inFormula(
    captures,
    () => (made.kind === 'Assign' ? assignExpression(ctx, made) : expr(ctx, made)),
    yields,
  )
  const lets =
    temps > 0 ? `let ${Array.from({ length: temps }, (_, i) => `t${i}`).join(', ')}; ` : ''
  const stop = yields ? '{ rt.tick(); yield; }' : 'rt.tick();'
  const tick = ctx.options.budget ? `if (--rt.ticks < 0) ${stop} ` : ''
  const e = ctx.catchName()
  // Counted as a call (ops/call-depth.ts) when it calls: a formula that calls itself ends with
  // 9438. One that calls nothing (`$1.value*2`, most of those given to `map`) cannot nest any
  // deeper by itself (a getter it reads is counted as the 4D function it is), and is not.
  const catcher = `catch (${e}) { throw rt.placed(${e}, ${quote(ctx.unit.name)}, ${quote(ctx.unit.file)}, ${node.loc.start.line}); }`
  return calls
    ? `${lets}rt.enterCall(); try { ${tick}return ${result.code}; } ${catcher} finally { rt.leaveCall(); }`
    : `${lets}try { ${tick}return ${result.code}; } ${catcher}`
}

/**
 * `Try(expr)`: its value, or Undefined when it raises (the error then in `Last errors`). A
 * `try` is a statement: the expression is the body of a function called at once, in a generator
 * a generator gone into (`yield*`) when the expression may stop, so that a long call inside
 * stops at its checks as any other.
 */
function tryExpr(ctx: EmitContext, body: Emitted): Emitted {
  const e = ctx.catchName()
  const line = ctx.options.lines ? 'ln' : '0'
  const inside =
    `{ try { rt.tryStart(); return ${body.code}; } catch (${e}) { ` +
    `rt.caught(${e}, ${quote(ctx.unit.name)}, ${quote(ctx.unit.file)}, ${line}); return void 0; } }`
  return emitted(
    ctx.yields && YIELDS.test(body.code)
      ? `(yield* (function* () ${inside})())`
      : `(() => ${inside})()`,
  )
}

// Code that may stop: it holds a `yield` (a word the generated code uses for nothing else; in a
// text literal it costs a generator where a function would do).
const YIELDS = /\byield\b/

/**
 * An assignment as a JavaScript expression, for the body of a formula (`Formula(Form.x:=$1)`): the
 * same conversions and compound operators as the statement (statements.ts), answering nothing.
 */
function assignExpression(ctx: EmitContext, node: AssignNode): Emitted {
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
  if (target.kind === 'Deref') {
    // `Formula($1->:=$1->+1)`: the pointer evaluated once, into a temporary of the formula.
    const pointer = ctx.temp()
    const v = value(() => emitted(`rt.deref(${pointer})`))
    return emitted(
      `(${pointer} = ${expr(ctx, target.pointer).code}, rt.derefSet(${pointer}, ${v.code}), void 0)`,
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

/**
 * `->target`: a pointer to a variable (pointers/pointer.ts). A local's is made once a call and
 * kept in a temporary of the call, a process or interprocess variable's once a run (the runtime
 * keeps it), so that two pointers to one variable are one; an element's holds the array and the
 * index as they are now.
 */
function pointerTo(ctx: EmitContext, target: ExprNode): Emitted {
  switch (target.kind) {
    case 'Name':
      return emitted(`rt.pvPointer(${quote(target.name)})`)
    case 'InterprocessVar':
      return emitted(`rt.ipPointer(${quote(target.name)})`)
    case 'ArrayElement': {
      const name = quote(describe(target.array))
      return emitted(
        `rt.elementPointer(${name}, ${expr(ctx, target.array).code}, ${expr(ctx, target.index).code})`,
      )
    }
    case 'Local':
    case 'Param': {
      const t = ctx.temp()
      const write = assignment(ctx, target, emitted(t))
      if (write === undefined) return emitted(`rt.unsupported("A pointer to a formula's $0")`)
      const read = expr(ctx, target).code
      const made = `rt.pointer(${quote(describe(target))}, () => ${read}, (${t}) => { ${write} })`
      const keep = ctx.pointerTemp(read)
      return emitted(keep === undefined ? made : `(${keep} ??= ${made})`)
    }
    default:
      return emitted(`rt.unsupported("A pointer to an expression")`)
  }
}

/** A variable's name as 4D writes it: `$count`, `$1`. */
const describe = (node: ExprNode): string =>
  node.kind === 'Local'
    ? `$${node.name}`
    : node.kind === 'Param'
      ? `$${node.index}`
      : node.kind === 'Name'
        ? node.name
        : node.kind === 'InterprocessVar'
          ? `<>${node.name}`
          : 'an array'
