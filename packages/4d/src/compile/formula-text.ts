/**
 * @module `compileFormulaText`: 4D code given as text at run time (`Formula from string`'s
 * expression, `EXECUTE FORMULA`'s line) compiled as a method file is: the same grammar, passes
 * and code generator, with budget checks, so that nothing of the text reaches JavaScript but
 * through them and its code stops at the run's budget. It is the runtime's `compileFormula`
 * (runtime/commands/formulas.ts), given by the places that make a running context.
 *
 * The text's `$1`… are the formula's parameters; a local variable is the 4D error -10737
 * (formula-from-string.md: compiled 4D cannot reach a local by name), raised when the formula is
 * made. A text that does not parse is a syntax error then too. Compiled texts are kept (the
 * last 500), so that a loop making the same formula compiles it once.
 */
import { LRUCache } from 'lru-cache'
import type { ExprNode } from '../ast/expressions.js'
import type { MethodFileNode } from '../ast/files.js'
import { parse4d, parseExpression } from '../grammar/parse.js'
import type { FunctionImpl } from '../runtime/context/function-object.js'
import type { FormulaKind } from '../runtime/context/command-context.js'
import { raise } from '../runtime/errors/fourd-error.js'
import { analyze } from './analyze.js'
import { buildFunction } from './build.js'
import { DEFAULT_EMIT_OPTIONS } from './emit/context.js'
import { emitUnit, type EmittedUnit } from './emit/function.js'
import { Session } from './session.js'
import type { Unit } from './units.js'

/** How errors name the code of a formula made from a text. */
const NAME = 'Formula'

const cache = new LRUCache<string, FunctionImpl>({ max: 500 })

export function compileFormulaText(text: string, kind: FormulaKind): FunctionImpl {
  const key = `${kind}\n${text}`
  let impl = cache.get(key)
  if (impl === undefined) {
    impl = compile(text, kind)
    cache.set(key, impl)
  }
  return impl
}

function compile(text: string, kind: FormulaKind): FunctionImpl {
  return buildFunction(emitFormula(text, kind), NAME)
}

/** The generated JavaScript of a formula's text (what the security tests read). */
export function emitFormula(text: string, kind: FormulaKind): EmittedUnit {
  const session = new Session(NAME)
  const analysis = analyze(formulaUnit(text, kind), session, text)
  const problem = session.problems.find((p) => p.severity === 'error')
  if (problem !== undefined) raise('SyntaxError', { detail: problem.message })
  for (const [key, slot] of analysis.locals)
    if (!key.startsWith('#')) raise('LocalInFormula', { name: slot.display })
  return emitUnit(analysis, DEFAULT_EMIT_OPTIONS)
}

function formulaUnit(text: string, kind: FormulaKind): Unit {
  const unit = {
    kind: 'formula',
    name: NAME,
    file: NAME,
    line: 1,
    params: null,
    result: null,
    body: [],
    inClass: false,
    expression: null,
  } as const
  if (kind === 'expression') return { ...unit, expression: expressionOf(text) }
  // One line of code (execute-formula.md: "The statement string must be one line").
  if (/[\r\n]/.test(text)) raise('SyntaxError', { detail: 'EXECUTE FORMULA runs one line' })
  const file = parse4d(text, { file: NAME, kind: 'method' }).file as MethodFileNode
  return { ...unit, body: file.body }
}

function expressionOf(text: string): ExprNode {
  try {
    return parseExpression(text.trim())
  } catch (e) {
    return raise('SyntaxError', { detail: e instanceof Error ? e.message : String(e) })
  }
}
