/**
 * @module How the ORDA classes' functions are written: each a 4D Function object whose `This` must
 * be an object of its class (`Formula` or `.call()` may give it another: 4D's "Unknown member
 * method" then), and whose call of core turns core's errors into 4D's (core-errors.ts).
 */
import {
  FourDFunction,
  type FunctionImpl,
  type OptionalStepsImpl,
} from '../runtime/context/function-object.js'
import type { Runtime } from '../runtime/context/runtime.js'
import { raise } from '../runtime/errors/fourd-error.js'
import { toText } from '../runtime/convert/conversions.js'
import { typeName } from '../runtime/values/kinds.js'
import { Collection } from '../runtime/values/collection.js'
import type { Work as CoreWork } from '@entistore/core'
import type { Work } from '../runtime/values/work.js'
import { fromCoreError, viaCore } from './core-errors.js'

export type MemberImpl<H> = (self: H, args: unknown[], rt: Runtime) => unknown

/**
 * A member's work as steps (runtime/values/work.ts), for a call in slices: a save whose events
 * are 4D code stops where their code does. Undefined for a call with nothing to run in steps
 * (`toObject()` naming no getter with steps): the member runs at once, no generator made for it.
 */
export type MemberSteps<H> = (self: H, args: unknown[], rt: Runtime) => Work<unknown> | undefined

/**
 * Core's work in steps as 4D code's: core's may also yield a Promise to wait for (its `Parked`),
 * but only under a read's scope that drives it, which a 4D call in slices never is: its steps
 * yield nothing.
 */
export const coreSteps = <T>(work: CoreWork<T>): Work<T> => work as unknown as Work<T>

/**
 * The functions of an ORDA class, by 4D name, for objects of `kind`; those of `steps` have their
 * steps too, which a call in slices goes into (runtime/context/step-calls.ts).
 */
export function defineMembers<H>(
  kind: abstract new (...args: never[]) => H,
  label: string,
  defs: Readonly<Record<string, MemberImpl<H>>>,
  steps: Readonly<Record<string, MemberSteps<H>>> = {},
): Map<string, FourDFunction> {
  const map = new Map<string, FourDFunction>()
  for (const [name, impl] of Object.entries(defs)) {
    const plain: FunctionImpl = (rt, self, args) => {
      if (!(self instanceof kind)) return raise('UnknownMemberMethod', { name })
      // A try here rather than viaCore's closure: a member may be called at every pass of a loop
      // (`$e.save()`), and the closure was one allocation and one call more each time.
      let out: unknown
      try {
        out = impl(self, args, rt)
      } catch (e) {
        throw fromCoreError(e)
      }
      return counted(out, rt)
    }
    const stepped = steps[name]
    if (stepped === undefined) {
      map.set(name, new FourDFunction(`${label}.${name}`, plain))
      continue
    }
    // Another `This` runs the plain form, which refuses it.
    const inSteps: OptionalStepsImpl = (rt, self, args) => {
      if (!(self instanceof kind)) return undefined
      const work = viaCore(() => stepped(self, args, rt))
      return work === undefined ? undefined : countedSteps(work, rt)
    }
    map.set(
      name,
      new FourDFunction(`${label}.${name}`, { build: () => plain, buildSteps: () => inSteps }),
    )
  }
  return map
}

// A member's steps, their errors 4D's, their result counted.
function* countedSteps(work: Work<unknown>, rt: Runtime): Work<unknown> {
  let out: unknown
  try {
    out = yield* work
  } catch (e) {
    throw fromCoreError(e)
  }
  return counted(out, rt)
}

/**
 * A member's result, counted: a collection made of many entities (`toCollection()`,
 * `distinct()`, `extract()`) is work the budget counts as that many loop passes, in either form
 * of the member: a call that reads 2,000 entities, 1,000 times over, is then stopped at the
 * budget, not after 12 s (context/budget.ts).
 */
function counted(out: unknown, rt: Runtime): unknown {
  if (out instanceof Collection && (rt.ticks -= out.length) < 0) rt.tick()
  return out
}

/** Parameter `n` (from 1) of `member`, which must be a text. */
export function textParam(args: readonly unknown[], n: number, member: string): string {
  const v = args[n - 1]
  if (typeof v === 'string') return v
  return raise('WrongParameterType', {
    parameter: String(n),
    command: member,
    expected: 'a Text',
    actual: typeName(v),
  })
}

/** An optional text or collection of texts (an attribute filter) as core takes it. */
export function filterParam(v: unknown): string | string[] | undefined {
  if (v === undefined || v === null) return undefined
  if (typeof v === 'string') return v
  if (typeof v === 'object' && 'items' in v && Array.isArray(v.items))
    return v.items.map((x: unknown) => toText(x))
  return undefined
}
