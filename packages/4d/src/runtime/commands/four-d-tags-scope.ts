/**
 * @module Where the code of one `PROCESS 4D TAGS` call runs: its parameters, which the tags read as
 * `$1`…`$n`, and "a dedicated set of local variables … written or read during processing"
 * (process-4d-tags.md), shared by every tag of the template, the templates it includes and the
 * values it reinterprets.
 *
 * Each piece of code (an expression, a line) is compiled by the run's compiler of 4D given as text
 * (`compileFormula`, as `Formula from string` and `EXECUTE FORMULA` are, commands/formulas.ts), so
 * that nothing of a template reaches JavaScript but through the compiler, and its code counts
 * against the run's budget. The locals are the members of the object the code runs with as
 * `This` (TagLocals; four-d-tags-source.ts writes `$name` as `This["name"]`): their names compared
 * without case, and typed once declared (`var $n : Integer` makes `$n:=1.6` a 2), as 4D's are.
 */
import { assignTo, defaultValue, type DeclaredType } from '../convert/assign.js'
import type { FormulaKind } from '../context/command-context.js'
import { FourDFunction } from '../context/function-object.js'
import { raise } from '../errors/fourd-error.js'
import { typeName } from '../values/kinds.js'
import { GET_MEMBER, SET_MEMBER, type MemberHost } from '../values/host.js'
import { localName, rewriteLocals } from './four-d-tags-source.js'
import type { CommandContext } from './table.js'

/** The template's locals, as the members of `This` its code reads and writes. */
export class TagLocals implements MemberHost {
  readonly #values = new Map<string, unknown>()
  readonly #types = new Map<string, DeclaredType>()

  /** `var $name : type`: typed from now on; its type's default if it has no value yet. */
  declare(name: string, type: DeclaredType): void {
    const key = name.toLowerCase()
    this.#types.set(key, type)
    if (!this.#values.has(key)) this.#values.set(key, defaultValue(type))
  }

  /** The type a local was declared with, if it was. */
  typeOf(name: string): DeclaredType | undefined {
    return this.#types.get(name.toLowerCase())
  }

  [GET_MEMBER](name: string): unknown {
    return this.#values.get(name.toLowerCase())
  }

  [SET_MEMBER](name: string, value: unknown): void {
    const key = name.toLowerCase()
    const type = this.#types.get(key)
    this.#values.set(key, type === undefined ? value : assignTo(type, value))
  }
}

/** The declared type a value gives a variable that takes its type from it (4DEACH's item). */
export function typeOfValue(v: unknown): DeclaredType {
  switch (typeName(v)) {
    case 'Number':
      return 'Real'
    case 'Text':
      return 'Text'
    case 'Boolean':
      return 'Boolean'
    case 'Date':
      return 'Date'
    case 'Time':
      return 'Time'
    case 'Collection':
      return 'Collection'
    case 'Object':
      return 'Object'
    case 'BLOB':
      return 'Blob'
    default:
      return 'Variant'
  }
}

export class TagScope {
  readonly locals = new TagLocals()
  readonly #compiled = new Map<string, FourDFunction>()

  constructor(
    readonly rt: CommandContext,
    /** The command's parameters after the output, the tags' `$1`…`$n`. */
    readonly params: unknown[],
  ) {}

  /**
   * The function of a piece of code, compiled once a call. Made as a Function object of its own,
   * not with `rt.formula`: a bare method name there would receive the template's parameters
   * (`Formula(myMethod)`), where a tag's `myMethod` calls it with none.
   */
  compile(code: string, kind: FormulaKind): FourDFunction {
    const key = `${kind}\n${code}`
    let fn = this.#compiled.get(key)
    if (fn === undefined) {
      const compile =
        this.rt.compileFormula ??
        raise('NotSupported', { construct: 'PROCESS 4D TAGS (no compiler is given to this run)' })
      fn = new FourDFunction('Formula', compile(rewriteLocals(code), kind), code)
      this.#compiled.set(key, fn)
    }
    return fn
  }

  #run(code: string, kind: FormulaKind, args: unknown[] = this.params): unknown {
    return this.rt.invoke(this.compile(code, kind), this.locals, args)
  }

  /** The value of an expression. */
  value(expression: string): unknown {
    const local = localName(expression)
    return local === undefined
      ? this.#run(expression, 'expression')
      : this.locals[GET_MEMBER](local)
  }

  /** Runs one line of code. */
  execute(line: string): void {
    this.#run(line, 'statement')
  }

  /**
   * `4DEVAL`'s code: "any valid 4D statement, including assignments and expressions that do not
   * return any value": an expression's value, else the line run (undefined).
   */
  evaluate(code: string): unknown {
    let fn: FourDFunction
    try {
      fn = this.compile(code, 'expression')
    } catch (e) {
      try {
        fn = this.compile(code, 'statement')
      } catch {
        throw e
      }
    }
    return this.rt.invoke(fn, this.locals, this.params)
  }

  /** A condition's value, which must be a Boolean (4D's `If` takes nothing else). */
  test(condition: string): boolean {
    const v = this.value(condition)
    return typeof v === 'boolean' ? v : raise('BooleanExpected', { type: typeName(v) })
  }

  /** `target:=value`: a local's member set, else the line `target:=$n+1` given the value. */
  assign(target: string, value: unknown): void {
    const local = localName(target)
    if (local !== undefined) this.locals[SET_MEMBER](local, value)
    else this.#run(`${target}:=$${this.params.length + 1}`, 'statement', [...this.params, value])
  }

  /**
   * `4DLOOP name`'s test: `name(n)` when it is a project method (made with `rt.formula`, whose
   * bare method name receives the call's parameters), else the value of the variable `name`.
   */
  callWith(name: string, n: number): unknown {
    const key = `method\n${name}`
    let fn = this.#compiled.get(key)
    if (fn === undefined) {
      const impl = this.compile(name, 'expression')
      fn = this.rt.formula(name, (rt, self, args) => impl.invoke(rt, self, args), [])
      this.#compiled.set(key, fn)
    }
    return this.rt.invoke(fn, this.locals, [n])
  }

  /**
   * A loop's pass: one call of compiled code, which counts against the run's budget as compiled
   * code counts its loops' passes, so that a template's endless loop stops as a method's does.
   */
  pass(): void {
    this.#run('True', 'expression')
  }
}
