/**
 * @module The calls a 4D generator makes (compile/emit/context.ts, `steps`): `callSteps`,
 * `methodSteps`, `superCallSteps` find the function as `call`, `method` and `superCall` do, and
 * answer its steps (ops/steps.ts) when it is 4D code with a generator or a collection function
 * written as steps (values/work.ts), or its value, called at once, when it is anything else;
 * `getAtSteps`, `getIntoSteps`, `getSteps` and `setSteps` read and assign a member as `getAt`,
 * `getInto`, `get` and `set` do, in steps when its host has work to run there (an entity's
 * relation, a getter, its `touched` events). They join the running context's prototype
 * (runtime/index.ts).
 */
import { raise } from '../errors/fourd-error.js'
import * as operators from '../operators.js'
import { Steps } from '../ops/steps.js'
import { runtimeParts } from './runtime-parts.js'
import { Collection } from '../values/collection.js'
import { MISS, READ_STEPS, SET_STEPS, type StepsHost } from '../values/host.js'
import type { Site } from '../ops/member-sites.js'
import type { ClassObject } from './class-object.js'
import { FourDFunction } from './function-object.js'
import type { Runtime } from './runtime.js'

/**
 * A member read's or assignment's work in steps, between its `getAtSteps` (`setSteps`) answering
 * LATER and the generator taking it with `later()`, within one expression of the generator.
 */
let pending: Generator<void, unknown, void> | undefined
const LATER: unique symbol = Symbol('later')

// `getAtSteps` past its site's reader, `getIntoSteps` with what to give again (`reuse`): the
// host's work first, if any (the read's closure made only then).
function readAhead(site: Site, target: unknown, key: string, reuse: unknown): unknown {
  const ahead =
    typeof target === 'object' && target !== null
      ? (target as StepsHost)[READ_STEPS]?.(key)
      : undefined
  if (ahead === undefined) return readNow(site, target, key, reuse)
  pending = readAfter(ahead, () => readNow(site, target, key, reuse))
  return LATER
}

// What `getAtSteps` passes as `reuse`: a plain `getAt`.
const AT: unique symbol = Symbol('at')

const readNow = (site: Site, target: unknown, key: string, reuse: unknown): unknown =>
  reuse === AT ? operators.getAt(site, target, key) : operators.getInto(site, target, key, reuse)

// The host's work, then the read, unless the work's value is the read's (host.ts `READ_STEPS`).
function* readAfter(
  ahead: Generator<void, unknown, void>,
  read: () => unknown,
): Generator<void, unknown, void> {
  const value = yield* ahead
  return value === MISS ? read() : value
}

export function stepsOf(rt: Runtime, fn: FourDFunction, self: unknown, args: unknown[]): unknown {
  const g = fn.steps(rt, self, args)
  return g === undefined ? fn.invoke(rt, self, args) : new Steps(g)
}

/** `obj.name(args)` in a generator: the function's steps, or its value called at once. */
export function callSteps(rt: Runtime, target: unknown, name: string, args: unknown[]): unknown {
  if (target instanceof Collection) {
    const steps = runtimeParts().collectionSteps.get(name)
    return steps === undefined ? rt.call(target, name, args) : new Steps(steps(rt, target, args))
  }
  const member = operators.get(target, name)
  if (member instanceof FourDFunction) return stepsOf(rt, member, target, args)
  return rt.call(target, name, args)
}

export const STEP_CALLS = {
  Steps,

  /** `obj.name(args)` in a generator. */
  callSteps(this: Runtime, target: unknown, name: string, args: unknown[]): unknown {
    return callSteps(this, target, name, args)
  },

  /**
   * `obj.name` read in a generator (at `site`): the read at once, or LATER when its host has work
   * to run in steps (READ_STEPS: a relation's restrict made ahead, a getter's call), which
   * `later()` gives, read and all (compile/emit/expressions.ts `stepping`).
   */
  getAtSteps(this: Runtime, site: Site, target: unknown, key: string): unknown {
    // Through the reader the site keeps when its reads have nothing to run first, as getAt reads
    // (an entity's attribute that is no relation): a loop's reads ask nothing more.
    const read = site.r
    if (read !== null && read.ahead !== true) {
      const value = read(target)
      if (value !== MISS) return value
    }
    return readAhead(site, target, key, AT)
  },

  /** `getInto` in a generator, as `getAtSteps` reads (member-sites.ts). */
  getIntoSteps(this: Runtime, site: Site, target: unknown, key: string, reuse: unknown): unknown {
    const read = site.r
    if (read !== null && read.ahead !== true) return operators.getInto(site, target, key, reuse)
    return readAhead(site, target, key, reuse)
  },

  /**
   * `obj[key]` in a generator, by a key known only as it runs (`$e[$name]`): `get` at once, or
   * LATER when the key is a text naming a member its host has work for first (READ_STEPS), as
   * `getAtSteps` answers for `obj.name`.
   */
  getSteps(this: Runtime, target: unknown, key: string | number): unknown {
    // A 4D object (no prototype, kept as a dictionary) is never a host: no lookup of it.
    if (
      typeof key === 'string' &&
      typeof target === 'object' &&
      target !== null &&
      Object.getPrototypeOf(target) !== null
    ) {
      const ahead = (target as StepsHost)[READ_STEPS]?.(key)
      if (ahead !== undefined) {
        pending = readAfter(ahead, () => operators.get(target, key))
        return LATER
      }
    }
    return operators.get(target, key)
  },

  /** `obj.name:=value` in a generator: `set` at once, or LATER for its host's steps (SET_STEPS). */
  setSteps(this: Runtime, target: unknown, key: string | number, value: unknown): unknown {
    // A 4D object (no prototype, kept as a dictionary) is never a host: no lookup of it.
    if (typeof target === 'object' && target !== null && Object.getPrototypeOf(target) !== null) {
      const host = (target as StepsHost)[SET_STEPS]
      const steps = host === undefined ? undefined : host.call(target, String(key), value)
      if (steps !== undefined) {
        pending = steps
        return LATER
      }
    }
    return operators.set(target, key, value)
  },

  /** What `getAtSteps` and `setSteps` answer when their work is to run in steps first. */
  LATER,

  /** The work `getAtSteps` or `setSteps` just answered LATER for, which the generator goes into. */
  later(this: Runtime): Generator<void, unknown, void> {
    const work = pending!
    pending = undefined
    return work
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
