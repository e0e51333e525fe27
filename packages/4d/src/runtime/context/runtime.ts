/**
 * @module The running context of 4D code, `rt`: the one value compiled code receives besides
 * `This` and its parameters. Its prototype holds every operator of operators.ts (`rt.add`,
 * `rt.get`…) and the helpers below; an instance holds what one run owns: the budget, the process
 * variables, `Last errors`, the process singletons, and what the host gives — `ds`, `cs`,
 * `session` and the project methods. The REST layer makes one per request.
 *
 * The commands, the collection's functions and the built-in classes it runs are above it (they run
 * on it and name it): it takes them from runtime-parts.ts, which the runtime's main entry
 * (runtime/index.ts) fills; a Runtime is made through that entry.
 */
import { noteVolatileRead, sharedStateChanged, systemClock, type Clock } from '@entistore/core'
import { SYMBOLS } from '../arguments/symbols.js'
import { toText } from '../convert/conversions.js'
import { assignTo, defaultValue, type DeclaredType } from '../convert/assign.js'
import { FourDError, raise } from '../errors/fourd-error.js'
import { thrownCode, thrownObject } from '../errors/throw.js'
import * as operators from '../operators.js'
import { Collection } from '../values/collection.js'
import { DateValue } from '../values/date-value.js'
import { isPlainObject, newObject, typeName } from '../values/kinds.js'
import { markStorage } from '../values/shared.js'
import { TimeValue } from '../values/time-value.js'
import { SLICED_TICKS, TICKS_BETWEEN_READS, type CodeBudget } from './budget.js'
import { BuiltinClassStore, ClassStore } from './class-store.js'
import { CLASS_MEMBERS, type ClassObject } from './class-object.js'
import type {
  CommandImpl,
  CommandSteps,
  EventLog,
  FormulaCompiler,
  HttpHost,
  ImageHost,
  SmtpHost,
  ExecHost,
  WorkerHost,
  WebServerHost,
} from './command-context.js'
import { catchable, placeError } from './error-flow.js'
import type { FileHost } from './file-host.js'
import {
  FourDFunction,
  formulaObject,
  type FunctionImpl,
  type StepsImpl,
} from './function-object.js'
import { iterate, type Iteration } from './iterate.js'
import { interprocessRead, processRead, useOps } from './outside-state.js'
import { literalOps } from './literal-ops.js'
import { charRefOps } from '../ops/char-refs.js'
import { MethodRegistry } from './methods.js'
import { keptPointer, type Pointer } from '../pointers/pointer.js'
import { withRuntime } from '../values/running.js'
import { runtimeParts } from './runtime-parts.js'
import type { CallFrame } from './call-chain.js'

export interface RuntimeOptions {
  /** Where the code must stop (none: it runs until it ends). */
  readonly budget?: CodeBudget
  /** For `Current date` and the like (the budget has its own). */
  readonly clock?: Clock
  /** The user classes (`cs`). */
  readonly classes?: ClassStore
  /** The built-in classes (`4D`). */
  readonly builtinClasses?: BuiltinClassStore
  /** The project methods. */
  readonly methods?: MethodRegistry
  /** The datastore as 4D code sees it (`ds`): the ORDA layer's. */
  readonly ds?: unknown
  /** The session (`Session`): the REST layer's. */
  readonly session?: object
  /** The web server the code runs in (`WEB Server`): the REST layer's. */
  readonly webServer?: WebServerHost
  /** The interprocess variables (`<>name`), shared by the runs of one project. */
  readonly interprocess?: Map<string, unknown>
  /** The project's folders (`File`, `Folder`): the project loader's. */
  readonly files?: FileHost
  /** Where `LOG EVENT` writes: the host's log. */
  readonly log?: EventLog
  /** Image conversions (`CREATE THUMBNAIL`): the host's. */
  readonly images?: ImageHost
  /** Outgoing HTTP requests (`HTTP Request`), mail (`4D.SMTPTransporter`), processes: the host's. */
  readonly http?: HttpHost
  readonly smtp?: SmtpHost
  readonly exec?: ExecHost
  /** The workers (`CALL WORKER`): the project runner's. */
  readonly workers?: WorkerHost
  /** Running in a worker: its name, and its process variables, kept from job to job. */
  readonly worker?: { readonly name: string; readonly variables: Map<string, unknown> }
  /** `Storage` (storage.md): one a datastore, kept by the project loader; else a new one a run. */
  readonly storage?: object
  /**
   * The compiler of 4D code given as text (`Formula from string`, `EXECUTE FORMULA`): the
   * compiler's, which the runtime does not import (commands/formulas.ts); none: they raise.
   */
  readonly compileFormula?: FormulaCompiler
}

// The operators, character references, the bounds of `Use` (outside-state.ts) and the values the
// compiler cannot write as literals (literal-ops.ts).
type Operators = typeof operators & typeof charRefOps & typeof useOps & typeof literalOps

// The session singletons of each session object.
const sessionSingletons = new WeakMap<object, Map<ClassObject, object>>()

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Runtime extends Operators {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Runtime {
  /** Ticks left before the clock is read (budget.ts); Infinity without a budget. */
  ticks: number
  #between = TICKS_BETWEEN_READS // ticks between two readings of the clock (fewer `inSlices`)
  #budget: CodeBudget | undefined
  readonly clock: Clock
  readonly cs: ClassStore
  readonly fourD: BuiltinClassStore
  readonly methods: MethodRegistry
  readonly ds: unknown
  readonly session: object | undefined
  readonly webServer: WebServerHost | undefined
  readonly log: EventLog | undefined
  readonly images: ImageHost | undefined
  readonly #http: HttpHost | undefined
  readonly smtp: SmtpHost | undefined
  readonly #exec: ExecHost | undefined
  readonly workers: WorkerHost | undefined
  readonly worker: string | undefined
  readonly #files: FileHost | undefined
  readonly storage: object
  readonly compileFormula: FormulaCompiler | undefined
  /** The command implementations by number: compiled code calls `rt.k[16](rt, "abc")`. */
  readonly k: readonly (CommandImpl | undefined)[] = runtimeParts().commands
  /** The steps of the commands that have them, by number: a generator's `yield* rt.ks[16](…)`. */
  readonly ks: readonly (CommandSteps | undefined)[] = runtimeParts().commandSteps
  /** The bare `*`, `>`, `<` arguments of commands. */
  readonly sym = SYMBOLS
  /** What runs now, innermost last (`Get call chain`; a component's run shares its caller's). */
  calls: CallFrame[] = []
  /** The errors `Last errors` returns: the last one caught by `Try`, with the deferred ones. */
  lastErrors: readonly FourDError[] | null = null
  /** The error-handling method `ON ERR CALL` installed ("" for none). */
  errorMethod = ''
  #handlingError = false
  // Made at first use: most runs (a computed getter) declare no variable and meet no singleton.
  #processSingletons: Map<ClassObject, object> | undefined
  #variables: Map<string, unknown> | undefined
  #pointers: Map<string, Pointer> | undefined
  #types: Map<string, DeclaredType> | undefined
  readonly #interprocess: Map<string, unknown>

  constructor(options: RuntimeOptions = {}) {
    this.#budget = options.budget
    this.ticks = options.budget === undefined ? Infinity : TICKS_BETWEEN_READS
    this.clock = options.clock ?? options.budget?.clock ?? systemClock
    this.cs = options.classes ?? new ClassStore()
    this.fourD = options.builtinClasses ?? new BuiltinClassStore()
    this.methods = options.methods ?? new MethodRegistry()
    this.ds = options.ds
    this.session = options.session
    this.webServer = options.webServer
    this.log = options.log
    this.images = options.images
    this.#http = options.http
    this.smtp = options.smtp
    this.#exec = options.exec
    this.workers = options.workers
    this.worker = options.worker?.name
    this.#variables = options.worker?.variables
    this.#files = options.files
    this.storage = markStorage(options.storage ?? newObject())
    this.compileFormula = options.compileFormula
    this.#interprocess = options.interprocess ?? new Map()
  }

  // What reads the world (a file, an HTTP reply, a program's output) changing untold: volatile.
  get files(): FileHost | undefined {
    noteVolatileRead()
    return this.#files
  }
  get http(): HttpHost | undefined {
    noteVolatileRead()
    return this.#http
  }
  get exec(): ExecHost | undefined {
    noteVolatileRead()
    return this.#exec
  }

  /** Runs host code that runs 4D code (a call, a read of a computed property) on this context. */
  run<T>(fn: () => T): T {
    return withRuntime(this, fn)
  }

  /** Calls a 4D function object with `This` and parameters, on this context. */
  invoke(fn: FourDFunction, self: unknown, args: unknown[]): unknown {
    return withRuntime(this, () => fn.invoke(this, self, args))
  }

  // ---- Budget ----

  /** The time the code may run, when bounded. */
  get budget(): CodeBudget | undefined {
    return this.#budget
  }

  /**
   * Bounds the code from now on by `budget`: a call run in slices gets, at each slice, what its
   * last one left of its request's budget (project/sliced-call.ts), not the turns it waited.
   */
  useBudget(budget: CodeBudget): void {
    this.#budget = budget
    this.ticks = Math.min(this.ticks, this.#between)
  }

  /** @internal From now on its code runs in slices: a stop (a clock reading) every SLICED_TICKS. */
  inSlices(): void {
    this.ticks = Math.min(this.ticks, (this.#between = SLICED_TICKS))
  }

  /** Called when `ticks` runs out: reads the clock, and stops the code past the deadline. */
  tick(): void {
    const budget = this.#budget
    if (budget === undefined) {
      this.ticks = Infinity
      return
    }
    if (budget.clock.now() > budget.deadline) raise('BudgetExceeded', { ms: budget.ms })
    this.ticks = this.#between
  }

  /** The clock: a read outside the data, told to core (outside-state.ts), as the reads below. */
  now(): number {
    noteVolatileRead()
    return this.clock.now()
  }

  // ---- Variables ----

  /** A process variable (`name`, compared without case); Undefined before any assignment. */
  pvGet(name: string): unknown {
    processRead()
    return this.#variables?.get(name.toLowerCase())
  }

  pvSet(name: string, value: unknown): void {
    sharedStateChanged()
    const key = name.toLowerCase()
    const type = this.#types?.get(key)
    ;(this.#variables ??= new Map()).set(key, type === undefined ? value : assignTo(type, value))
  }

  /** The process singletons (`singleton Class constructor`). */
  get processSingletons(): Map<ClassObject, object> {
    return (this.#processSingletons ??= new Map())
  }

  /** `var name : Type` of a process variable: typed from now on, its default if it had no value. */
  pvDeclare(name: string, type: DeclaredType): void {
    const key = name.toLowerCase()
    ;(this.#types ??= new Map()).set(key, type)
    const variables = (this.#variables ??= new Map())
    if (!variables.has(key)) variables.set(key, assignTo(type, undefined))
  }

  /** A bare name: the project method of that name called without parameters, else the variable. */
  nameValue(name: string): unknown {
    const method = this.methods.get(name)
    return method === undefined ? this.pvGet(name) : method.invoke(this, undefined, [])
  }

  /** `->name`: the pointer to a process variable, one a run, so that two compare equal. */
  pvPointer(name: string): Pointer {
    const [read, write] = [() => this.pvGet(name), (v: unknown) => this.pvSet(name, v)]
    return keptPointer((this.#pointers ??= new Map()), `p:${name}`, name, read, write)
  }

  /** `-><>name`: the pointer to an interprocess variable, one a run. */
  ipPointer(name: string): Pointer {
    const [read, write] = [() => this.ipGet(name), (v: unknown) => this.ipSet(name, v)]
    return keptPointer((this.#pointers ??= new Map()), `i:${name}`, `<>${name}`, read, write)
  }

  /** An interprocess variable `<>name`. */
  ipGet(name: string): unknown {
    const v = this.#interprocess.get(name.toLowerCase())
    interprocessRead(v)
    return v
  }

  ipSet(name: string, value: unknown): void {
    sharedStateChanged()
    this.#interprocess.set(name.toLowerCase(), value)
  }

  /** The session singletons of this run's session (one map a session; the process's without). */
  sessionSingletons(): Map<ClassObject, object> {
    if (this.session === undefined) return this.processSingletons
    let map = sessionSingletons.get(this.session)
    if (map === undefined) sessionSingletons.set(this.session, (map = new Map()))
    return map
  }

  // ---- Calls ----

  /** `target.name(args)`: a class function, a formula held in a property, a collection function. */
  call(target: unknown, name: string, args: unknown[]): unknown {
    if (target instanceof Collection) {
      const fn = runtimeParts().collectionFunctions.get(name)
      if (fn !== undefined) return fn(this, target, args)
    }
    const member = operators.get(target, name)
    if (member instanceof FourDFunction) return member.invoke(this, target, args)
    return raise('UnknownMemberMethod', { name })
  }

  /** `myMethod(args)`. */
  method(name: string, args: unknown[]): unknown {
    const fn = this.methods.get(name)
    if (fn === undefined) return raise('ProjectMethodNotFound', { name })
    return fn.invoke(this, undefined, args)
  }

  /** `Super(args)` in a constructor: the parent class's constructor on `This`. */
  superConstruct(home: unknown, self: unknown, args: unknown[]): void {
    const parent = (home as ClassObject | undefined)?.superclass
    if (parent !== null && parent !== undefined) parent.runConstructor(this, self, args)
  }

  /** `Super.name(args)`: the parent class's function on `This`. */
  superCall(home: unknown, self: unknown, name: string, args: unknown[]): unknown {
    const fn = (home as ClassObject | undefined)?.superclass?.findFunction(name)
    if (fn === undefined) return raise('UnknownMemberMethod', { name })
    return fn.invoke(this, self, args)
  }

  /**
   * `Formula(expr)`: a function object over the compiled expression and the locals it copied;
   * `readsFirst`: it only reads members of its `$1` (compile/emit/formula-param.ts). A formula
   * that is a project method's bare name passes its own parameters to the method
   * (FunctionClass.md, "Parameters to a single method": `Formula(myMethod)` needs no `($1;$2)`),
   * which may keep its `$1`. `forHosts`: its steps matter only for what a member it reads runs
   * (it calls nothing: function-object.ts `forHosts`).
   */
  formula(
    source: string,
    impl: FunctionImpl,
    captured: unknown[],
    readsFirst = false,
    steps?: StepsImpl,
    forHosts = false,
  ): FourDFunction {
    return formulaObject(source, impl, captured, readsFirst, steps, forHosts)
  }

  // ---- Parameters ----

  /**
   * A parameter typed by a classic `C_` command: a value of another type gives the type's empty
   * value, without an error (parameters.md, "Wrong parameter type", interpreted mode).
   */
  legacyParam(type: DeclaredType, v: unknown): unknown {
    try {
      return assignTo(type, v)
    } catch (e) {
      if (FourDError.is(e)) return defaultValue(type)
      throw e
    }
  }

  /** The parameters from `from` (1-based) on made `type` (`... : Text`); a wrong one is an error. */
  variadic(args: unknown[], from: number, type: DeclaredType): void {
    for (let i = from - 1; i < args.length; i++) args[i] = assignTo(type, args[i])
  }

  // ---- Errors ----

  /** A statement that did not parse, reached. */
  syntaxError(detail: string): never {
    return raise('SyntaxError', { detail })
  }

  /** A command (or constant) that parses but is not implemented here, reached. */
  notRunnable(name: string): never {
    if (runtimeParts().notRunnable(name) === 'processes') return raise('NoOtherProcess', { name })
    return raise('NotImplemented', { name })
  }

  /**
   * `cs.name` as the object of a member (`cs.name.member`): the class, or, when the project has
   * none of that name, an error naming the class (`cs.Foo.new()`) or the component whose class
   * is read (`cs.AIKit.OpenAI`), which `Try`/`Catch` catches. `cs.name` alone reads Undefined.
   */
  csOf(name: string, member: string): unknown {
    const c = this.cs.get(name) ?? this.cs.component(name)
    if (c !== undefined) return c
    return CLASS_MEMBERS.has(member)
      ? raise('ClassNotHere', { name })
      : raise('ComponentNotHere', { name, member })
  }

  /** A construct of the classic language that does not run here (arrays, pointers, fields). */
  unsupported(construct: string): never {
    return raise('NotSupported', { construct })
  }

  /** The error a compiled function's `catch` throws on: placed at its method, file and line. */
  placed(e: unknown, method: string, file: string, line: number): FourDError {
    return placeError(e, method, file, line)
  }

  /** The error a `Try` caught, placed and made `Last errors`; one code may not catch goes on. */
  caught(e: unknown, method: string, file: string, line: number): FourDError {
    const err = placeError(e, method, file, line)
    if (!catchable(err)) throw err
    this.lastErrors = [err]
    return err
  }

  /**
   * An error of a statement of a method that calls `ON ERR CALL` (on-err-call.md): with an
   * error-handling method installed, the error becomes `Last errors` and the system variables
   * `Error`, `Error method`, `Error line`, `Error formula`, the method runs, and the code goes on
   * with the next statement. Without one, an error in the method itself, or one 4D code may not
   * catch (the budget's), goes on.
   */
  trapped(e: unknown, method: string, file: string, line: number): void {
    const err = placeError(e, method, file, line)
    if (this.errorMethod === '' || this.#handlingError || !catchable(err)) throw err
    const handler = this.methods.get(this.errorMethod)
    if (handler === undefined) throw err
    this.lastErrors = [err]
    this.pvSet('Error', err.errCode)
    this.pvSet('Error method', err.method ?? method)
    this.pvSet('Error line', err.line ?? line)
    this.pvSet('Error formula', '')
    this.#handlingError = true
    try {
      handler.invoke(this, undefined, [])
    } finally {
      this.#handlingError = false
    }
  }

  /** The start of a `Try`: no error yet. */
  tryStart(): void {
    this.lastErrors = null
  }

  /** `Last errors`: a collection of error objects, or Null. */
  lastErrorObjects(): Collection | null {
    const errors = this.lastErrors
    if (errors === null || errors.length === 0) return null
    return new Collection(
      errors.map((e) => operators.objectOf(...Object.entries(e.toErrorObject()).flat())),
    )
  }

  /**
   * `throw(code {; description})`, `throw(errorObj)`, or a bare `throw`. A deferred error goes to
   * `deferred` (the method's), to be thrown when the method returns (`flushDeferred`); the others
   * are thrown now.
   */
  throwError(deferred: FourDError[], ...args: unknown[]): void {
    if (args.length === 0) {
      // A bare `throw`: the current errors go on, deferred, when the method returns.
      deferred.push(...(this.lastErrors ?? []))
      return
    }
    const [first, description] = args
    let err: FourDError
    if (typeof first === 'number')
      err = thrownCode(first, description === undefined ? undefined : toText(description))
    else if (isPlainObject(first)) err = thrownObject(first, { write: toText })
    // `throw "message"`, as public code writes it: the message of an error without a code.
    else if (typeof first === 'string') err = thrownObject({ message: first }, { write: toText })
    else
      return raise('WrongParameterType', {
        parameter: 'errorCode',
        command: 'throw',
        expected: 'a Number or an Object',
        actual: typeName(first),
      })
    if (!err.deferred) throw err
    deferred.push(err)
    this.lastErrors = [...(this.lastErrors ?? []), err]
  }

  /** At a method's return: its deferred errors, thrown as one (the first; all in `Last errors`). */
  flushDeferred(deferred: FourDError[], method: string, file: string): void {
    const first = deferred[0]
    if (first === undefined) return
    this.lastErrors = [...deferred]
    deferred.length = 0
    throw placeError(first, method, file, 0)
  }
}

Object.assign(Runtime.prototype, operators, charRefOps, useOps, literalOps)
