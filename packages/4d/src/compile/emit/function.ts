/**
 * @module One unit as the source of a function that makes (once) its member reads' sites and
 * returns the JavaScript function `(rt, th, ag, cx)` of the unit, its 4D lines kept on the same
 * lines (the first one holds the prologue):
 *
 * ```js
 * const s0 = { r: null }; return function (rt, th, ag, cx) {
 * let v0, v1 = 0, t0, l0, c0 = rt.dateOf(…); let df = []; if (--rt.ticks < 0) rt.tick();
 * try { v0 = rt.asText(ag[0]); …the statements, each on its line (`rt.getAt(s0, v0, "name")`)…
 * } catch (e0) { df.length = 0; throw rt.placed(e0, "Car.drive", "Classes/Car.4dm", 0); }
 * finally { if (df.length !== 0) rt.flushDeferred(df, …); } return v1; }
 * ```
 *
 * Parameters take their declared types when the call starts (a wrong type is an error then, as
 * 4D's interpreter does for named parameters; the classic `C_` form gets the empty value
 * instead); variables start with their type's default, the result is returned at the end.
 */
import type { Analysis, Slot } from '../analysis.js'
import { EmitContext, PARAMETERS, type EmitOptions } from './context.js'
import { converted, defaultCode, emitted } from './emitted.js'
import { expr } from './expressions.js'
import { quote } from './quote.js'
import { block } from './statements.js'

export interface EmittedUnit {
  /** The body of the function that returns the unit's, its first line standing for `firstLine`. */
  readonly source: string
  readonly firstLine: number
}

export function emitUnit(analysis: Analysis, options: EmitOptions): EmittedUnit {
  const ctx = new EmitContext(analysis, options)
  const { unit } = analysis
  const { w } = ctx
  const name = quote(unit.name)
  const file = quote(unit.file)
  const entry = parameters(analysis)
  if (unit.expression !== null) {
    w.at(unit.expression.loc.start.line)
    w.write(`return ${expr(ctx, unit.expression).code};`)
  } else block(ctx, unit.body)
  const e = ctx.catchName()
  const line = options.lines ? 'ln' : '0'
  const deferred = analysis.hasThrow
  w.write(
    `} catch (${e}) { ${deferred ? 'df.length = 0; ' : ''}throw rt.placed(${e}, ${name}, ${file}, ${line}); }`,
  )
  if (deferred) w.write(`finally { if (df.length !== 0) rt.flushDeferred(df, ${name}, ${file}); }`)
  if (analysis.result !== undefined) w.write(`return v${analysis.result.id};`)
  w.write('}')
  const lets = [...analysis.slots.map(declaration), ...ctx.declarations()]
  const sites = ctx.siteDeclarations()
  const prologue = [
    sites.length > 0 ? `const ${sites.join(', ')};` : '',
    `return function${options.steps === true ? '*' : ''} (${PARAMETERS.join(', ')}) {`,
    lets.length > 0 ? `let ${lets.join(', ')};` : '',
    deferred ? 'let df = [];' : '',
    options.lines ? `let ln = ${unit.line};` : '',
    ctx.tick().trim(),
    `try {${entry === '' ? '' : ` ${entry}`}`,
  ]
  w.prepend(prologue.filter((p) => p !== '').join(' '))
  return { source: w.toString(), firstLine: unit.line }
}

function declaration(slot: Slot): string {
  const value = slot.param === undefined ? defaultCode(slot.type) : undefined
  return value === undefined ? `v${slot.id}` : `v${slot.id} = ${value}`
}

/** The parameters made the declared types of their variables, when the call starts. */
function parameters(analysis: Analysis): string {
  const out: string[] = []
  const classic = analysis.unit.params === null
  for (const slot of analysis.params) {
    if (slot === undefined) continue
    const arg = emitted(`ag[${slot.param! - 1}]`)
    const type = slot.type
    out.push(
      classic && type !== undefined && type !== 'Variant'
        ? `v${slot.id} = rt.legacyParam(${quote(type)}, ${arg.code});`
        : `v${slot.id} = ${converted(type, arg)};`,
    )
  }
  const variadic = analysis.variadicType
  if (variadic !== undefined && variadic !== 'Variant')
    out.push(`rt.variadic(ag, ${analysis.variadicFrom}, ${quote(variadic)});`)
  return out.join(' ')
}
