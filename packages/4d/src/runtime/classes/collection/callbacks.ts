/**
 * @module The callbacks of the collection functions (docs/API/CollectionClass.md, `.filter()`,
 * `.map()`, `.sort()`…): a Formula object (`Formula($1.value>0)`) or the name of a project method,
 * called with an object in `$1` (`$1.value`, and `$1.value2` to compare two elements) and the
 * extra parameters in `$2`…`$N`. What it returns is its result; a method that returns nothing sets
 * `$1.result` instead ("if the method does not return any value, .filter() will look at the
 * property $1.result"). `$1.stop` set to True ends the loop after this element. `This` inside the
 * callback is Undefined (4D's docs do not say what it is).
 */
import { raise } from '../../errors/fourd-error.js'
import { wrongType } from '../../arguments/arguments.js'
import type { Runtime } from '../../context/runtime.js'
import { FourDFunction } from '../../context/function-object.js'
import type { Work } from '../../values/work.js'
import { READ_STEPS, type StepsHost } from '../../values/host.js'

/** `$1` of a callback: the element's value and what the callback sets. */
export type CallbackParam = Record<string, unknown>

/** A callback made callable: `call($1)` runs it and gives its result. */
export interface Callback {
  /** Runs the callback on `$1` (with the extra parameters) and gives its result. */
  call(param: CallbackParam): unknown
  /** Runs it and gives what it returned (Undefined for a method that returns nothing). */
  returned(param: CallbackParam): unknown
  /**
   * `call` as steps (values/work.ts): the callback's own steps when it has them (4D code called
   * from a call in slices), else its value at once.
   */
  callSteps(param: CallbackParam): Work<unknown>
  /** `returned` as steps, as `callSteps` is `call`'s. */
  returnedSteps(param: CallbackParam): Work<unknown>
  /**
   * Whether `callSteps` may stop: the callback is 4D code with steps. For any other, a loop of
   * steps calls `call` (a generator an element is a cost the plain call pays for nothing).
   */
  readonly stepped: boolean
  /**
   * Whether its steps matter only over elements that are hosts (a formula that calls nothing but
   * reads members: `Formula($1.value.heavy)`): `stepped` is false, and a loop asks `steppedOver`.
   */
  readonly forHosts: boolean
  /**
   * `$1` for one element, `{value: v}`: a new object, or, for a formula that only reads members
   * of its `$1` (keeps it nowhere, sets nothing on it), the same one each time.
   */
  element(value: unknown): CallbackParam
  /** `$1` for a comparison, `{value: a; value2: b}`, likewise. */
  pair(a: unknown, b: unknown): CallbackParam
}

/** The callback `fn` (a Formula or a method name) of `command`, with its extra parameters. */
export function callbackOf(
  rt: Runtime,
  command: string,
  fn: unknown,
  extra: readonly unknown[],
): Callback {
  let f: FourDFunction
  if (fn instanceof FourDFunction) f = fn
  else if (typeof fn === 'string') {
    const method = rt.methods.get(fn)
    f = method ?? raise('ProjectMethodNotFound', { name: fn })
  } else return wrongType(command, 'formula', 'a 4D.Function or a method name', fn)
  if (f.readsFirst) return lendingCallback(rt, f, extra)
  const returned =
    extra.length === 0
      ? (param: CallbackParam): unknown => f.invoke(rt, undefined, [param])
      : (param: CallbackParam): unknown => f.invoke(rt, undefined, [param, ...extra])
  const returnedSteps = (param: CallbackParam): Work<unknown> => stepsOf(rt, f, [param, ...extra])
  return {
    returned,
    returnedSteps,
    call(param) {
      const r = returned(param)
      return r !== undefined ? r : param.result
    },
    *callSteps(param) {
      const r = yield* returnedSteps(param)
      return r !== undefined ? r : param.result
    },
    stepped: f.hasSteps && !f.forHosts,
    forHosts: f.hasSteps && f.forHosts,
    element: elementParam,
    pair: pairParam,
  }
}

/**
 * Whether a loop of `cb` over `items` goes into its steps: it is 4D code that calls something, or
 * reads members and some element has work to run for a member read (an entity: its getters).
 */
export function steppedOver(cb: Callback, items: readonly unknown[]): boolean {
  return cb.stepped || (cb.forHosts && items.some(isStepsHost))
}

const isStepsHost = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && (v as Partial<StepsHost>)[READ_STEPS] !== undefined

/** A call of `f` as steps: its own when it has them, else its value at once. */
function* stepsOf(rt: Runtime, f: FourDFunction, params: unknown[]): Work<unknown> {
  const g = f.steps(rt, undefined, params)
  return g === undefined ? f.invoke(rt, undefined, params) : yield* g
}

// A formula that only reads its $1's members: one $1 of each form, and one array of parameters,
// for all its calls (it sets no `result` and no `stop` on them, and keeps neither).
function lendingCallback(rt: Runtime, f: FourDFunction, extra: readonly unknown[]): Callback {
  const one: CallbackParam = { value: undefined }
  const two: CallbackParam = { value: undefined, value2: undefined }
  const params: unknown[] = [one, ...extra]
  const returned = (param: CallbackParam): unknown => {
    params[0] = param
    return f.invoke(rt, undefined, params)
  }
  const returnedSteps = (param: CallbackParam): Work<unknown> => {
    params[0] = param
    return stepsOf(rt, f, params)
  }
  return {
    returned,
    call: returned,
    returnedSteps,
    callSteps: returnedSteps,
    stepped: f.hasSteps && !f.forHosts,
    forHosts: f.hasSteps && f.forHosts,
    element(value) {
      one.value = value
      return one
    },
    pair(a, b) {
      two.value = a
      two.value2 = b
      return two
    },
  }
}

// `$1` is a plain object of JavaScript's literal form (a 4D object all the same: isPlainObject),
// which V8 keeps with a fixed shape, where an object without prototype would be a dictionary:
// callbacks run once an element. Elements are stored values already (no Time, no Undefined).

/** `$1` for one element: `{value: v}`. */
export const elementParam = (value: unknown): CallbackParam => ({ value })

/** `$1` for a comparison: `{value: a; value2: b}`. */
export const pairParam = (a: unknown, b: unknown): CallbackParam => ({ value: a, value2: b })

/** Whether the callback asked to stop (`$1.stop:=True`). */
export const stopped = (param: CallbackParam): boolean => param.stop === true

/**
 * The first parameters of `.every()`, `.some()`, `.find()`, `.findIndex()`: an optional start
 * index, then the callback and its parameters.
 */
export function startAndCallback(args: readonly unknown[]): {
  start: number | undefined
  fn: unknown
  extra: unknown[]
} {
  return typeof args[0] === 'number'
    ? { start: args[0], fn: args[1], extra: args.slice(2) }
    : { start: undefined, fn: args[0], extra: args.slice(1) }
}

/**
 * What a loop over the elements does with a callback's result for the element at `index`: True
 * when the loop is over (the element looked for is found).
 */
export type Take = (result: unknown, index: number) => boolean | void

/** Where a loop of callbacks ended: the index, or -1 when it went through, and the last result. */
export interface Ended {
  readonly index: number
  readonly last: unknown
}

/**
 * Calls `cb` on the elements from `from`, in order, giving `take` each result, until `take` says
 * the loop is over or the callback sets `$1.stop`: where it ended. Each call counts its own pass
 * (compiled code counts a call at its start). The plain call's loop.
 */
export function eachNow(cb: Callback, items: readonly unknown[], from: number, take: Take): Ended {
  let last: unknown = undefined
  for (let i = from; i < items.length; i++) {
    const param = cb.element(items[i])
    last = cb.call(param)
    if (take(last, i) === true || stopped(param)) return { index: i, last }
  }
  return { index: -1, last }
}

/**
 * `eachNow` as steps (values/work.ts), for a call in slices: a callback that has steps (4D code)
 * is gone into, and stops where its own code stops; after a call that read the clock (its ticks
 * ran out and were given again: every 4,096 calls of a formula without steps) the loop stops,
 * where a slice may end.
 */
export function* eachElement(
  rt: Runtime,
  cb: Callback,
  items: readonly unknown[],
  from: number,
  take: Take,
): Work<Ended> {
  let last: unknown = undefined
  const stepped = steppedOver(cb, items)
  for (let i = from; i < items.length; i++) {
    const param = cb.element(items[i])
    const ticks = rt.ticks
    last = stepped ? yield* cb.callSteps(param) : cb.call(param)
    if (take(last, i) === true || stopped(param)) return { index: i, last }
    if (rt.ticks > ticks) yield
  }
  return { index: -1, last }
}
