/**
 * @module What runs a project's code on a datastore of core: one class store, project methods,
 * interprocess variables and `Storage` for each datastore (the ORDA classes a class extends are
 * that datastore's), and a running context (runtime.ts) as the caller — the session of the call,
 * the request's time budget (core's query budget, which the REST interface sets for each request,
 * or `budgetMs` for a call made outside one). The code a request runs shares one running context,
 * as a request's code shares one process in 4D (its process variables, its singletons, `Last
 * errors`): the context is kept while the same request (a read's slice scope across its slices,
 * else its budget), actor (its session) and datastore run code, so that a getter read for each of
 * 100k entities does not make 100k contexts; a call made outside any request has one of its own.
 * Every piece of a project's code that core calls (a class function, a computed attribute's
 * getter, an entity event, a restrict) is run by `run`, so they all see the same state and are all
 * bounded alike.
 * A 4D error leaves as 4D's error stack: the error, then where it happened (the function, its file
 * and line), as the REST interface answers it.
 */
import {
  actingNow,
  currentBudget,
  currentCall,
  currentScope,
  datastoreError,
  systemClock,
  type Datastore,
  type DatastoreError,
} from '@entistore/core'
import { compileFormulaText } from '../compile/formula-text.js'
import { Runtime } from '../runtime/index.js'
import { budgetOf, type CodeBudget } from '../runtime/context/budget.js'
import { FourDError } from '../runtime/errors/fourd-error.js'
import type { FourDFunction } from '../runtime/context/function-object.js'
import { running } from '../runtime/values/running.js'
import { enterCall, leaveCall, THROUGH_CORE } from '../runtime/ops/call-depth.js'
import { slice, slicesLeft, step, type SlicedCall } from './sliced-call.js'
import { limitsOf, withLimits, type CodeLimits } from '../runtime/values/limits.js'
import { markShared } from '../runtime/values/shared.js'
import { newObject } from '../runtime/values/kinds.js'
import type { ClassObject } from '../runtime/context/class-object.js'
import type { ClassStore } from '../runtime/context/class-store.js'
import type { MethodRegistry } from '../runtime/context/methods.js'
import type { CompiledProject, ProjectClass } from './compile-project.js'
import { ordaBridge, type OrdaBridge } from '../orda/bridge.js'
import { withoutOrda } from './without-orda.js'
import { Workers, type WorkerJob } from './workers.js'
import type { FileHost } from '../runtime/context/file-host.js'
import type {
  EventLog,
  HttpHost,
  ImageHost,
  SmtpHost,
  ExecHost,
  WebServerHost,
} from '../runtime/context/command-context.js'

export interface ProjectRunnerOptions {
  /** The ORDA bridge of a datastore, made once for each. @default src/orda's `ordaBridge` */
  readonly bridge?: (datastore: Datastore) => OrdaBridge
  /** The time a call made outside a request may run. @default 2000 (the REST query budget's) */
  readonly budgetMs?: number
  /** The project's folders, for `File` and `Folder` (project-files.ts); none: they raise. */
  readonly files?: FileHost
  /**
   * The web server serving `datastore` now (`WEB Server`), asked at each request's first code;
   * none: `WEB Server` tells of one not running.
   */
  readonly webServer?: (datastore: Datastore) => WebServerHost | undefined
  /** Where `LOG EVENT` writes; none: the events go nowhere. */
  readonly log?: EventLog
  /** Image conversions (`CREATE THUMBNAIL`); none: a conversion raises when reached. */
  readonly images?: ImageHost
  /** Outgoing HTTP requests (`HTTP Request`); none: they raise when reached. */
  readonly http?: HttpHost
  /** Outgoing mail (`4D.SMTPTransporter`'s `send()`); none: a send raises when reached. */
  readonly smtp?: SmtpHost
  /** External programs (`LAUNCH EXTERNAL PROCESS`); none: they raise when reached. */
  readonly exec?: ExecHost
  /** The bounds of sizes and call depth (values/limits.ts), each not given the default's. */
  readonly limits?: Partial<CodeLimits>
}

/** The state a project's code keeps on one datastore. */
interface Running {
  readonly bridge: OrdaBridge
  readonly classes: ClassStore
  readonly methods: MethodRegistry
  /** The interprocess variables (`<>name`), the datastore's. */
  readonly interprocess: Map<string, unknown>
  /** `Storage`, the datastore's shared object. */
  readonly storage: object
  /** The datastore, for the host's `webServer` (none for a call made outside any). */
  readonly ds: Datastore | undefined
  /** Its workers (`CALL WORKER`). */
  readonly workers: Workers
}

// The running context of the request that ran code last (its budget), and its RunContext a class.
interface Kept {
  /** The request: its read's slice scope (its slices' budgets differ), else its budget. */
  readonly request: object
  /** The budget its context now counts against (a later slice of the read brings its own). */
  budget: CodeBudget
  readonly running: Running
  readonly actor: object | undefined
  readonly rt: Runtime
  readonly contexts: Map<string, RunContext>
}

/** What a piece of code is given to run: its runtime, its class and the datastore's bridge. */
export interface RunContext {
  readonly rt: Runtime
  readonly cls: ClassObject
  readonly bridge: OrdaBridge
}

export class ProjectRunner {
  readonly #project: CompiledProject
  readonly #options: ProjectRunnerOptions
  readonly #limits: CodeLimits
  // One running state a datastore (the call's), and one for a call made outside any.
  readonly #running = new WeakMap<object, Running>()
  readonly #noDatastore = {}
  #kept: Kept | undefined

  constructor(project: CompiledProject, options: ProjectRunnerOptions = {}) {
    this.#project = project
    this.#options = options
    this.#limits = limitsOf(options.limits)
  }

  #runningFor(ds: Datastore | undefined): Running {
    const key = ds ?? this.#noDatastore
    let r = this.#running.get(key)
    if (r === undefined) {
      const bridge = ds === undefined ? withoutOrda : (this.#options.bridge ?? ordaBridge)(ds)
      const { classes, methods } = this.#project.instantiate({
        builtinSuperclass: (path) => bridge.builtinSuperclass(path) as ClassObject | null,
      })
      const storage = markShared(newObject())
      const interprocess = new Map<string, unknown>()
      const workers: Workers = new Workers((job, variables) =>
        this.#runJob(running, job, variables),
      )
      const running: Running = { bridge, classes, methods, interprocess, storage, ds, workers }
      this.#running.set(key, (r = running))
    }
    return r
  }

  /** One job of a worker, in a running context of its own (workers.ts). */
  #runJob(running: Running, job: WorkerJob, variables: Map<string, unknown>): void {
    const budget = budgetOf(this.#options.budgetMs ?? 2000, running.ds?.clock ?? systemClock)
    const rt = this.#runtime(running, budget, { name: job.name, variables })
    try {
      withLimits(this.#limits, () =>
        rt.run(() =>
          typeof job.job === 'string'
            ? rt.method(job.job, [...job.args])
            : rt.invoke(job.job, undefined, [...job.args]),
        ),
      )
    } catch (e) {
      // The caller has gone on: the error is the log's, as 4D's worker errors are its own.
      const what = e instanceof Error ? e.message : String(e)
      const from = job.process === undefined ? 'CALL WORKER' : 'New process'
      this.#options.log?.('error', `${from} "${job.name}": ${what}`)
    }
  }

  /** A new running context on `running` as the session now acting, bounded by `budget`. */
  #runtime(
    running: Running,
    budget: CodeBudget,
    worker?: { readonly name: string; readonly variables: Map<string, unknown> },
  ): Runtime {
    const { bridge, classes, methods, interprocess, storage, ds, workers } = running
    const session = bridge.session()
    const webServer = ds && this.#options.webServer?.(ds)
    // One literal, no spread: a call outside a request makes one a call.
    return new Runtime({
      classes,
      methods,
      interprocess,
      storage,
      compileFormula: compileFormulaText,
      ds: bridge.ds,
      builtinClasses: bridge.fourD,
      session: typeof session === 'object' && session !== null ? session : undefined,
      files: this.#options.files,
      log: this.#options.log,
      images: this.#options.images,
      http: this.#options.http,
      smtp: this.#options.smtp,
      exec: this.#options.exec,
      workers,
      worker,
      webServer,
      budget,
    })
  }

  /**
   * Runs `body` for class `c` on `datastore` (by default the current call's: code core runs
   * outside a function call, a computed attribute's getter, names its own), in the running
   * context of the request (a new one outside any); a 4D error it raises leaves as the error
   * stack of `where` (`Class.function`) when the error names no place of its own.
   */
  /**
   * Calls the function `target` names, as `run` runs code, but in slices (sliced-call.ts) when it
   * is a REST request's call (a call with a page to tell: core's `currentCall()`) and no 4D code
   * runs already (a call made by 4D code runs at once, inside its caller's slice): the first slice
   * now, its value given to `result` when it ends in it; else a Promise of that, the other slices
   * one a turn.
   */
  callInSlices(
    c: ProjectClass,
    where: string,
    target: (cx: RunContext) => SlicedTarget,
    result: (cx: RunContext, value: unknown) => unknown,
  ): unknown {
    const sliced = running() === undefined && currentCall()?.page !== undefined
    let call: SlicedCall | undefined
    let context: RunContext | undefined
    let kept: Kept | undefined
    const first = this.run(c, where, (cx) => {
      const { code, self, params } = target(cx)
      const g = sliced ? code.steps(cx.rt, self, params) : undefined
      if (g === undefined)
        return { done: true, value: result(cx, cx.rt.invoke(code, self, params)) }
      context = cx
      kept = this.#kept
      const clock = cx.rt.clock
      const budget = currentBudget()
      const deadline = budget?.deadline ?? Infinity
      cx.rt.inSlices()
      call = { rt: cx.rt, g, clock, budget, own: 0, left: 0, deadline }
      const r = slice(call)
      return r.done ? { done: true, value: result(cx, r.value) } : r
    })
    if (first.done) return first.value
    const within = <T>(fn: () => T): T =>
      withLimits(this.#limits, () => {
        // The running context of the call's request, for what core runs inside it (a getter).
        this.#kept = kept
        return fn()
      })
    return slicesLeft(
      call!,
      within,
      (value) => result(context!, value),
      (e) => (FourDError.is(e) ? errorStack(e, where, c.file) : e),
    )
  }

  /**
   * The function `target` names as work that core drives in steps (its `Work`, a `restrict` or
   * an event core runs in a read's or a save's slices): each `next()` runs the function's
   * generator to its next stop, as `run` runs code (the running context of the request at that
   * moment, the project's bounds), under the budget current then, which core gives each slice;
   * its value goes to `result`, a 4D error it throws to `failed` first. A function without steps
   * (none in the class, or not 4D code) runs whole in the first step. Closed before its end (core
   * dropped the work: a read's request gone), it closes the function's generator where it stopped,
   * in the same context, so that its `finally` blocks run at once (a `Use` it is inside lets go of
   * its lock).
   */
  *stepsOf<R>(
    c: ProjectClass,
    where: string,
    target: (cx: RunContext) => StepsTarget,
    result: (cx: RunContext, value: unknown) => R,
    failed: (error: unknown) => unknown,
    datastore?: Datastore,
  ): Generator<void, R, void> {
    // `stopped`: its generator waits at a stop (neither ended nor thrown).
    let call:
      { rt: Runtime; g: Generator<void, unknown, void>; own: number; stopped: boolean } | undefined
    try {
      for (;;) {
        const r = this.run(
          c,
          where,
          (cx) => {
            try {
              if (call === undefined) {
                const { code, self, params } = target(cx)
                const g = code?.steps(cx.rt, self, params)
                if (g === undefined) {
                  const value = code === undefined ? undefined : cx.rt.invoke(code, self, params)
                  return { done: true as const, value: result(cx, value) }
                }
                cx.rt.inSlices()
                call = { rt: cx.rt, g, own: 0, stopped: false }
              } else {
                // The budget of this slice (core gives each the time the last one left).
                const budget = currentBudget()
                if (budget !== undefined) call.rt.useBudget(budget)
              }
              call.stopped = false
              const n = step(call)
              call.stopped = n.done !== true
              return n.done === true ? { done: true as const, value: result(cx, n.value) } : n
            } catch (e) {
              throw failed(e)
            }
          },
          datastore,
        )
        if (r.done === true) return r.value
        yield
      }
    } finally {
      // Left while its generator waits at a stop (a close, or an error before its next step).
      const waiting = call
      if (waiting?.stopped === true) this.run(c, where, () => step(waiting, true), datastore)
    }
  }

  /**
   * A running context of its own on `datastore`, as one 4D process: its process variables kept
   * from one call to the next, bounded by `budgetMs` from now (`rt.useBudget` gives it another).
   * What a test runner runs a test in (project-tests.ts): the datastore's running state (its class
   * store, interprocess variables, `Storage`) is the one its functions run on.
   */
  process(datastore: Datastore, budgetMs: number): ProjectProcess {
    const running = this.#runningFor(datastore)
    const rt = this.#runtime(running, budgetOf(budgetMs, datastore.clock))
    return { rt, classes: running.classes, methods: running.methods, limits: this.#limits }
  }

  /**
   * Drops the running state of `datastore` (its interprocess variables, `Storage`, singletons,
   * workers' state): the next code run on it starts afresh, as after a restart.
   */
  forget(datastore: Datastore): void {
    this.#running.delete(datastore)
    if (this.#kept?.running.ds === datastore) this.#kept = undefined
  }

  run<T>(c: ProjectClass, where: string, body: (cx: RunContext) => T, datastore?: Datastore): T {
    const ds = datastore ?? currentCall()?.datastore
    const running = this.#runningFor(ds)
    const budget = currentBudget()
    let cx: RunContext
    if (budget === undefined) {
      const own = budgetOf(this.#options.budgetMs ?? 2000, ds?.clock ?? systemClock)
      cx = contextOf(c, running, this.#runtime(running, own))
    } else {
      // Who acts: the request's actor, the same for each piece of its reply (rest's json-chunks
      // runs each in a frame of its own, whose Session object is new: the actor is not).
      const actor = actingNow()
      // A read in slices is one request across its slices, each with a budget of its own: the
      // getters it calls in a later slice (its reply's, made ahead) share its process variables.
      const request = currentScope()?.request ?? budget
      let kept = this.#kept
      if (
        kept === undefined ||
        kept.request !== request ||
        kept.running !== running ||
        kept.actor !== actor
      ) {
        const rt = this.#runtime(running, budget)
        this.#kept = kept = { request, budget, running, actor, rt, contexts: new Map() }
      } else if (kept.budget !== budget) {
        kept.rt.useBudget(budget)
        kept.budget = budget
      }
      const found = kept.contexts.get(c.name)
      if (found !== undefined) cx = found
      else kept.contexts.set(c.name, (cx = contextOf(c, running, kept.rt)))
    }
    try {
      return withLimits(this.#limits, () => {
        // A level through core: many frames (ops/call-depth.ts).
        enterCall(THROUGH_CORE)
        try {
          return body(cx)
        } finally {
          leaveCall(THROUGH_CORE)
        }
      })
    } catch (e) {
      throw FourDError.is(e) ? errorStack(e, where, c.file) : e
    }
  }
}

/** One process of `ProjectRunner.process`: its running context, classes, methods and bounds. */
export interface ProjectProcess {
  readonly rt: Runtime
  readonly classes: ClassStore
  readonly methods: MethodRegistry
  readonly limits: CodeLimits
}

/** What a call in slices runs: the function, `This` and the parameters, as 4D values. */
export interface SlicedTarget {
  readonly code: FourDFunction
  readonly self: unknown
  readonly params: unknown[]
}

/** What `stepsOf` runs: a call in slices's, its function undefined when the class lacks it. */
type StepsTarget = Omit<SlicedTarget, 'code'> & { readonly code: FourDFunction | undefined }

const contextOf = (c: ProjectClass, running: Running, rt: Runtime): RunContext => ({
  rt,
  cls: running.classes.get(c.name)!,
  bridge: running.bridge,
})

/**
 * A 4D error as the REST interface answers it: 4D's error (its code, component and message), then
 * where it happened, as 4D's error stack reads.
 */
export function errorStack(e: FourDError, fallback: string, fallbackFile: string): DatastoreError {
  const method = e.method ?? fallback
  const file = e.file ?? fallbackFile
  const place = `Error in ${method}${e.line === undefined || e.line === 0 ? '' : `, line ${e.line}`} of ${file}`
  return datastoreError('FunctionFailed', [e.message], {
    code: { errCode: e.errCode, componentSignature: e.componentSignature },
    cause: datastoreError('FunctionFailed', [place]),
  })
}
