/**
 * @module The calls of member functions at a site of the generated code (ops/call-sites.ts):
 * `callAt` calls what `call` calls, `callAtSteps` answers what `callSteps` answers, each finding
 * the function through the finder the site keeps. They join the running context's prototype
 * (runtime/index.ts), as the calls of a generator do (step-calls.ts).
 */
import { functionAt, type CallSite } from '../ops/call-sites.js'
import { FourDFunction } from './function-object.js'
import type { Runtime } from './runtime.js'
import { callSteps, stepsOf } from './step-calls.js'

export const SITE_CALLS = {
  /** `obj.name(args)` at a place that keeps where its last host's function was. */
  callAt(this: Runtime, site: CallSite, target: unknown, name: string, args: unknown[]): unknown {
    const fn = functionAt(site, target, name, this.cs)
    return fn instanceof FourDFunction
      ? fn.invoke(this, target, args)
      : this.call(target, name, args)
  },

  /** The same in a generator: the function's steps, or its value called at once. */
  callAtSteps(
    this: Runtime,
    site: CallSite,
    target: unknown,
    name: string,
    args: unknown[],
  ): unknown {
    const fn = functionAt(site, target, name, this.cs)
    return fn instanceof FourDFunction
      ? stepsOf(this, fn, target, args)
      : callSteps(this, target, name, args)
  },
}
