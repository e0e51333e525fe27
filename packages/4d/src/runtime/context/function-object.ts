/**
 * @module 4D's Function objects (docs/API/FunctionClass.md): a class function, a formula
 * (`Formula(expr)`), a project method, or a function of the runtime (a class's `new()`). Calling
 * one runs it on the running context with `This` and its parameters; code sees `call()`,
 * `apply()` and `source` (and nothing of the JavaScript function behind it).
 */
import { raise } from '../errors/fourd-error.js'
import { Collection } from '../values/collection.js'
import { GET_MEMBER, type MemberHost } from '../values/host.js'
import type { Runtime } from './runtime.js'

/**
 * The code of a function: the running context, `This`, the parameters, and what the function was
 * made with (`context`: the class a class function belongs to, the values a formula captured).
 */
export type FunctionImpl = (
  rt: Runtime,
  self: unknown,
  args: unknown[],
  context: unknown,
) => unknown

/** A function's code as a generator: it stops (`yield`) where its caller may end a slice. */
export type StepsImpl = (
  rt: Runtime,
  self: unknown,
  args: unknown[],
  context: unknown,
) => Generator<void, unknown, void>

/**
 * Steps that a call may go without: undefined for a call that has nothing to run in steps, made
 * at once by the plain form (an ORDA member's, orda/member-kit.ts: no generator for it).
 */
export type OptionalStepsImpl = (
  ...args: Parameters<StepsImpl>
) => Generator<void, unknown, void> | undefined

export class FourDFunction implements MemberHost {
  #impl: FunctionImpl | undefined
  readonly #build: (() => FunctionImpl) | undefined
  #steps: OptionalStepsImpl | undefined
  readonly #buildSteps: (() => OptionalStepsImpl) | undefined

  /**
   * `impl`, or `build` to make it at the first call (compiled code is generated when first run);
   * `context` is passed to it at each call.
   */
  constructor(
    /** How 4D names it in errors and `Current method name`: `Car.drive`, `myMethod`, `Formula`. */
    readonly name: string,
    impl:
      | FunctionImpl
      | { readonly build: () => FunctionImpl; readonly buildSteps?: () => OptionalStepsImpl },
    /** The 4D text of a formula (`.source`); "" for others. */
    readonly source = '',
    public context: unknown = undefined,
    /**
     * It only reads members of its `$1` (a formula the compiler checked): a caller may give it the
     * same `$1` object at each call (collection/callbacks.ts).
     */
    readonly readsFirst = false,
    /**
     * Its steps matter only for what a member it reads runs (a formula that calls nothing, but
     * reads `$1.value.heavy`: an entity's getter): a loop over elements none of which has work
     * to run for a member read (host.ts `READ_STEPS`) calls it plain (collection/callbacks.ts).
     */
    readonly forHosts = false,
  ) {
    if (typeof impl === 'function') this.#impl = impl
    else {
      this.#build = impl.build
      this.#buildSteps = impl.buildSteps
    }
  }

  /**
   * The call as steps (a generator that stops at its budget's checks: compile/emit/context.ts),
   * for code compiled from 4D; undefined for any other function, or a call its steps go without
   * (OptionalStepsImpl), which a caller runs at once.
   */
  steps(rt: Runtime, self: unknown, args: unknown[]): Generator<void, unknown, void> | undefined {
    if (this.#buildSteps === undefined) return undefined
    const steps = (this.#steps ??= this.#buildSteps())
    return steps(rt, self, args, this.context)
  }

  /** Whether the function runs as steps too (`steps`): code compiled from 4D. */
  get hasSteps(): boolean {
    return this.#buildSteps !== undefined
  }

  /** Runs the function with `This` = `self`. */
  invoke(rt: Runtime, self: unknown, args: unknown[]): unknown {
    const impl = (this.#impl ??= this.#build!())
    return impl(rt, self, args, this.context)
  }

  /**
   * Makes the function's code now, as its first call would (what measuring a whole project's
   * compile needs: a lazy function is otherwise made only when called).
   */
  make(): void {
    this.#impl ??= this.#build!()
  }

  /** Whether the function's code is made (a lazy one before its first call is not). */
  get built(): boolean {
    return this.#impl !== undefined
  }

  [GET_MEMBER](name: string): unknown {
    switch (name) {
      case 'call':
        return CALL
      case 'apply':
        return APPLY
      case 'source':
        return this.source
      default:
        return undefined
    }
  }
}

const asFunction = (v: unknown): FourDFunction =>
  v instanceof FourDFunction ? v : raise('UnknownMemberMethod', { name: 'call' })

/** `f.call(thisObj {; param…})`. */
const CALL = new FourDFunction('call', (rt, self, args) =>
  asFunction(self).invoke(rt, args[0], args.slice(1)),
)

/** `f.apply(thisObj {; paramsCollection})`. */
const APPLY = new FourDFunction('apply', (rt, self, args) => {
  const params = args[1]
  return asFunction(self).invoke(rt, args[0], params instanceof Collection ? [...params.items] : [])
})

/** A formula's text that is one name (a project method's, when one has it). */
const BARE_NAME = /^[A-Za-z_\u00C0-\uFFEF][A-Za-z0-9_\u00C0-\uFFEF]*$/

/**
 * The function object of a `Formula(expr)` (Runtime's `formula`): over the compiled expression
 * and the locals it copied, with its steps when it has them (a formula that calls something, made
 * in a unit's generator: compile/emit/expressions.ts). A formula that is a project method's bare
 * name runs that method when the project has one (FunctionClass.md, "Parameters to a single
 * method": `Formula(myMethod)` passes its own parameters on).
 */
export function formulaObject(
  source: string,
  impl: FunctionImpl,
  captured: unknown[],
  readsFirst: boolean,
  steps: StepsImpl | undefined,
  forHosts = false,
): FourDFunction {
  if (!BARE_NAME.test(source)) {
    const made = steps === undefined ? impl : { build: () => impl, buildSteps: () => steps }
    return new FourDFunction('Formula', made, source, captured, readsFirst, forHosts)
  }
  // The method may keep its `$1`: never lent (readsFirst false).
  const single: FunctionImpl = (rt, self, args, cx) => {
    const method = rt.methods.get(source)
    return method === undefined ? impl(rt, self, args, cx) : method.invoke(rt, self, args)
  }
  if (steps === undefined) return new FourDFunction('Formula', single, source, captured)
  const singleSteps: StepsImpl = function* (rt, self, args, cx) {
    const method = rt.methods.get(source)
    if (method === undefined) return yield* steps(rt, self, args, cx)
    const g = method.steps(rt, self, args)
    return g === undefined ? method.invoke(rt, self, args) : yield* g
  }
  return new FourDFunction(
    'Formula',
    { build: () => single, buildSteps: () => singleSteps },
    source,
    captured,
  )
}
