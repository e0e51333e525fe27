/**
 * @module The units the compiler turns into JavaScript functions, one each: a method file, and
 * each class member with code (the constructor, a function, a computed property's getter or
 * setter, a property's initial value, an ORDA function). A unit knows what 4D calls it in errors
 * (`Car.drive`), its file, the line it starts on, and its declared parameters and result.
 */
import type { ExprNode } from '../ast/expressions.js'
import type { ClassFileNode, FunctionNode, MethodFileNode } from '../ast/files.js'
import type { ParamDeclNode, ResultDeclNode, StatementNode } from '../ast/statements.js'

export type UnitKind =
  | 'method'
  | 'constructor'
  | 'function'
  | 'getter'
  | 'setter'
  | 'initializer'
  | 'orda'
  /** 4D code given as text at run time (`Formula from string`, `EXECUTE FORMULA`). */
  | 'formula'

export interface Unit {
  readonly kind: UnitKind
  /** `Car.drive`, `Car constructor`, `myMethod`: as errors and `Current method name` say it. */
  readonly name: string
  readonly file: string
  /** The line the unit starts on (its `Function` line; 1 for a method). */
  readonly line: number
  /** Named parameters (a method's come from its `#DECLARE`); null for the classic `$1`… form. */
  readonly params: readonly ParamDeclNode[] | null
  readonly result: ResultDeclNode | null
  readonly body: readonly StatementNode[]
  /** Whether `This` and `Super` name a class's instance and parent. */
  readonly inClass: boolean
  /** The expression of an initializer or a formula, whose value the unit returns. */
  readonly expression: ExprNode | null
}

/** A method's name: its file's, without folders and `.4dm`. */
export const nameOfFile = (file: string): string =>
  file
    .split(/[\\/]/)
    .pop()!
    .replace(/\.4dm$/i, '')

/** The unit of a method file; its `#DECLARE` (wherever it is written) gives its parameters. */
export function methodUnit(file: MethodFileNode, name = nameOfFile(file.file)): Unit {
  const declare = file.body.find((s) => s.kind === 'Declare')
  return {
    kind: 'method',
    name,
    file: file.file,
    line: 1,
    params: declare?.params ?? null,
    result: declare?.result ?? null,
    body: file.body,
    inClass: false,
    expression: null,
  }
}

/** A class function's (or accessor's, or ORDA function's) unit. */
export function functionUnit(cls: ClassFileNode, className: string, fn: FunctionNode): Unit {
  const kind =
    fn.functionKind === 'plain'
      ? 'function'
      : fn.functionKind === 'get'
        ? 'getter'
        : fn.functionKind === 'set'
          ? 'setter'
          : 'orda'
  return {
    kind,
    name: `${className}.${fn.name}`,
    file: cls.file,
    line: fn.loc.start.line,
    params: fn.params,
    result: fn.result,
    body: fn.body,
    inClass: true,
    expression: null,
  }
}
