/**
 * @module The calls a 4D generator makes (compile/emit/context.ts, `steps`): `callSteps`,
 * `methodSteps`, `superCallSteps` find the function as `call`, `method` and `superCall` do, and
 * answer its steps (ops/steps.ts) when it is 4D code with a generator or a collection function
 * written as steps (values/work.ts), or its value, called at once, when it is anything else. They
 * join the running context's prototype (runtime/index.ts).
 */
import { raise } from '../errors/fourd-error.js'
import * as operators from '../operators.js'
import { Steps } from '../ops/steps.js'
import { runtimeParts } from './runtime-parts.js'
import { Collection } from '../values/collection.js'
import type { ClassObject } from './class-object.js'
import { FourDFunction } from './function-object.js'
import type { Runtime } from './runtime.js'

function stepsOf(rt: Runtime, fn: FourDFunction, self: unknown, args: unknown[]): unknown {
  const g = fn.steps(rt, self, args)
  return g === undefined ? fn.invoke(rt, self, args) : new Steps(g)
}

export const STEP_CALLS = {
  Steps,

  /** `obj.name(args)` in a generator. */
  callSteps(this: Runtime, target: unknown, name: string, args: unknown[]): unknown {
    if (target instanceof Collection) {
      const steps = runtimeParts().collectionSteps.get(name)
      return steps === undefined
        ? this.call(target, name, args)
        : new Steps(steps(this, target, args))
    }
    const member = operators.get(target, name)
    if (member instanceof FourDFunction) return stepsOf(this, member, target, args)
    return this.call(target, name, args)
  },

  /** `myMethod(args)` in a generator. */
  methodSteps(this: Runtime, name: string, args: unknown[]): unknown {
    const fn = this.methods.get(name)
    if (fn === undefined) return raise('ProjectMethodNotFound', { name })
    return stepsOf(this, fn, undefined, args)
  },

  /** `Super.name(args)` in a generator. */
  superCallSteps(
    this: Runtime,
    home: unknown,
    self: unknown,
    name: string,
    args: unknown[],
  ): unknown {
    const fn = (home as ClassObject | undefined)?.superclass?.findFunction(name)
    if (fn === undefined) return raise('UnknownMemberMethod', { name })
    return stepsOf(this, fn, self, args)
  },
}
