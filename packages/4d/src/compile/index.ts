/**
 * @module The compiler of 4D code: from the AST to JavaScript functions (docs/4d-language.md,
 * "How code runs").
 */
export { compileClass, type ClassOptions } from './compile-class.js'
export {
  compileMethod,
  type CompiledMethod,
  type CompileOptions,
  type MethodOptions,
} from './compile-method.js'
export { DEFAULT_EMIT_OPTIONS, type EmitOptions } from './emit/context.js'
export { run4d, type Run4dOptions } from './run4d.js'
export { Session, type Problem, type ProblemCode, type Severity } from './session.js'
