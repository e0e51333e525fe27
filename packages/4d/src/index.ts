/**
 * @module The 4D language package's public entry: parsing, compiling and running 4D code on a
 * datastore of `@entistore/core`.
 */
export const LANGUAGE_PACKAGE = '@entistore/4d'

export { parse4d, parseExpression, problemsOf } from './grammar/parse.js'
export type { Parse4dOptions, Parse4dResult, ParseProblem } from './grammar/parse.js'
export type * from './ast/index.js'
export { Ast, childrenOf, walk, formatLoc } from './ast/index.js'
export {
  compileClass,
  compileMethod,
  run4d,
  Session,
  type ClassOptions,
  type CompiledMethod,
  type CompileOptions,
  type EmitOptions,
  type MethodOptions,
  type Problem,
  type ProblemCode,
  type Run4dOptions,
  type Severity,
} from './compile/index.js'
export { Runtime, type RuntimeOptions } from './runtime/index.js'
export { budgetOf, type CodeBudget } from './runtime/context/budget.js'
export { DEFAULT_LIMITS, limitsOf, type CodeLimits } from './runtime/values/limits.js'
export { MethodRegistry } from './runtime/context/methods.js'
export { FOR_EACH } from './runtime/context/iterate.js'
export { BuiltinClassStore, ClassStore } from './runtime/context/class-store.js'
export { ClassObject, classOf, type ClassDefinition } from './runtime/context/class-object.js'
export { FourDFunction, type FunctionImpl } from './runtime/context/function-object.js'
export { COMMANDS, type CommandSpec } from './runtime/commands/index.js'
export type {
  EventLog,
  ExecAsk,
  ExecHost,
  ExecReply,
  HttpAsk,
  HttpHost,
  HttpReply,
  ImageHost,
  ImageTarget,
  SmtpAsk,
  SmtpHost,
  SmtpReply,
  WebServerHost,
} from './runtime/context/command-context.js'
export type { CommandSymbols } from './runtime/arguments/symbols.js'
export { FourDError } from './runtime/errors/fourd-error.js'
export { ordaBridge, type OrdaBridge } from './orda/bridge.js'
export { DK as ORDA_OPTIONS } from './orda/options.js'
export * from './project/index.js'
