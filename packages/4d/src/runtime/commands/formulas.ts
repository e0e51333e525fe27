/**
 * @module The commands that run 4D code given as text or by name: `Formula from string`
 * (formula-from-string.md), `EXECUTE FORMULA` (execute-formula.md) and `EXECUTE METHOD`
 * (execute-method.md).
 *
 * A text is compiled at run time by the host's compiler (`compileFormula`, which the places
 * that make a running context give from src/compile/: the runtime does not import the
 * compiler): the same grammar and code generator as a method file, so nothing of the text
 * reaches JavaScript but through them, and the code it makes counts against the run's budget
 * as any other. A run without a compiler raises NotSupported. The text cannot read the caller's
 * locals (compiled 4D cannot either: error -10737); `$1`… are the formula's parameters.
 */
import { raise } from '../errors/fourd-error.js'
import { outArg } from '../arguments/out-parameter.js'
import { textArg } from '../arguments/arguments.js'
import { SYMBOLS } from '../arguments/symbols.js'
import type { FormulaCompiler, FormulaKind } from '../context/command-context.js'
import type { CommandContext, CommandSpec } from './table.js'

function compiled(rt: CommandContext, command: string, text: string, kind: FormulaKind) {
  const compile =
    rt.compileFormula ??
    raise('NotSupported', { construct: `${command} (no compiler is given to this run)` })
  return compile(text, kind)
}

export const FORMULA_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1601,
    name: 'Formula from string',
    signature: '(formulaString: Text; context?: Integer): Object',
    impl: (rt, text) => {
      const source = textArg('Formula from string', 'formulaString', text)
      return rt.formula(source, compiled(rt, 'Formula from string', source, 'expression'), [])
    },
  },
  {
    number: 63,
    name: 'EXECUTE FORMULA',
    signature: '(statement: Text)',
    impl: (rt, text) => {
      const source = textArg('EXECUTE FORMULA', 'statement', text)
      if (source.trim() === '') return
      const code = compiled(rt, 'EXECUTE FORMULA', source, 'statement')
      rt.invoke(rt.formula(source, code, []), undefined, [])
    },
  },
  {
    number: 1007,
    name: 'EXECUTE METHOD',
    signature: '(methodName: Text; result?: any; ...params: any)',
    writes: [1],
    impl: (rt, name, result, ...params) => {
      const method = textArg('EXECUTE METHOD', 'methodName', name)
      // `*` (or nothing) for a method that returns nothing; else the variable its result goes to.
      const out =
        result === undefined || result === SYMBOLS['*']
          ? undefined
          : outArg('EXECUTE METHOD', 'result', result)
      rt.pvSet('OK', 0)
      const value = rt.method(method, params)
      out?.set(value)
      rt.pvSet('OK', 1)
    },
  },
]
