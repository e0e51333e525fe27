/**
 * @module `compileMethod`: a method file (its text or its AST) made a 4D Function object. The
 * passes run now, so that its problems are known at once; its JavaScript is generated and
 * compiled at its first call.
 */
import type { MethodFileNode } from '../ast/files.js'
import { parse4d } from '../grammar/parse.js'
import { FourDFunction, type StepsImpl } from '../runtime/context/function-object.js'
import type { Runtime } from '../runtime/context/runtime.js'
import type { CallFrame } from '../runtime/context/call-chain.js'
import { enterCall, leaveCall } from '../runtime/ops/call-depth.js'
import { analyze } from './analyze.js'
import type { Analysis } from './analysis.js'
import { buildFunction } from './build.js'
import { DEFAULT_EMIT_OPTIONS, type EmitOptions } from './emit/context.js'
import { emitUnit } from './emit/function.js'
import { Session, type Problem } from './session.js'
import { methodUnit, nameOfFile, type Unit } from './units.js'

export interface CompileOptions {
  /** The session the problems go to (one a file); a new one by default. */
  readonly session?: Session
  /** How the code is generated: budget checks and line tracking (both on… lines off by default). */
  readonly emit?: Partial<EmitOptions>
  /** The file's text, for the `source` of its formulas (taken from the text when one is given). */
  readonly text?: string
  /**
   * The running context the code runs on, from its caller's: a component's code runs on one of
   * its own (its `cs`, methods and variables); none: the caller's.
   */
  readonly enter?: (rt: Runtime) => Runtime
  /** The project's or the component's name, as `Get call chain` gives it. @default "" */
  readonly database?: string
}

export interface MethodOptions extends CompileOptions {
  /** The file's path (`Project/Sources/Methods/myMethod.4dm`): required with a text. */
  readonly file?: string
  /** The method's name; the file's by default. */
  readonly name?: string
}

export interface CompiledMethod {
  readonly name: string
  readonly file: string
  /** The method as 4D code sees it (for a method registry). */
  readonly fn: FourDFunction
  readonly problems: readonly Problem[]
  /** Runs the method on `rt` with parameters (4D values); its result. */
  call(rt: Runtime, args?: readonly unknown[]): unknown
}

// The kinds of get-call-chain.md: a class's member is a class function.
const FRAME_TYPES: Readonly<Record<Unit['kind'], string>> = {
  method: 'projectMethod',
  constructor: 'classFunction',
  function: 'classFunction',
  getter: 'classFunction',
  setter: 'classFunction',
  initializer: 'classFunction',
  orda: 'classFunction',
  formula: 'executeFormula',
}

/** The Function object of a unit, its code made at its first call. */
export function lazyFunction(analysis: Analysis, options: CompileOptions): FourDFunction {
  const emit = { ...DEFAULT_EMIT_OPTIONS, ...options.emit }
  const unit = analysis.unit
  const enter = options.enter
  const frame: CallFrame = {
    type: FRAME_TYPES[unit.kind],
    name: unit.name,
    file: unit.file,
    database: options.database ?? '',
  }
  return new FourDFunction(unit.name, {
    // The same, as steps (its code a generator): what a caller runs in slices.
    buildSteps: () => {
      const impl = buildFunction(
        emitUnit(analysis, { ...emit, steps: true }),
        unit.file,
      ) as unknown as StepsImpl
      return function* (rt, self, args, context) {
        const on = enter === undefined ? rt : enter(rt)
        enterCall()
        on.calls.push(frame)
        try {
          return yield* impl(on, self, args, context)
        } finally {
          on.calls.pop()
          leaveCall()
        }
      }
    },
    build: () => {
      const impl = buildFunction(emitUnit(analysis, { ...emit, steps: false }), unit.file)
      // Each run is a step of the call chain while it runs (`Get call chain`).
      return (rt, self, args, context) => {
        const on = enter === undefined ? rt : enter(rt)
        enterCall()
        on.calls.push(frame)
        try {
          return impl(on, self, args, context)
        } finally {
          on.calls.pop()
          leaveCall()
        }
      }
    },
  })
}

/** The analysis of a unit in a session. */
export function analyzeUnit(unit: Unit, session: Session, text: string | undefined): Analysis {
  return analyze(unit, session, text ?? '')
}

export function compileMethod(
  source: string | MethodFileNode,
  options: MethodOptions = {},
): CompiledMethod {
  const text = typeof source === 'string' ? source : options.text
  const file =
    typeof source === 'string'
      ? (options.file ?? 'Project/Sources/Methods/method.4dm')
      : source.file
  const ast =
    typeof source === 'string'
      ? (parse4d(source, { file, kind: 'method' }).file as MethodFileNode)
      : source
  const session = options.session ?? new Session(file)
  const name = options.name ?? nameOfFile(file)
  const analysis = analyzeUnit(methodUnit(ast, name), session, text)
  const fn = lazyFunction(analysis, options)
  return {
    name,
    file,
    fn,
    get problems() {
      return session.problems
    },
    call: (rt, args = []) => rt.invoke(fn, undefined, [...args]),
  }
}
