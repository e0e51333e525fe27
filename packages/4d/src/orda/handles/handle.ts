/**
 * @module What the ORDA objects 4D code holds share (the datastore `ds`, a dataclass, an entity, an
 * entity selection): how a member is found. `obj.name` reads, in order, the model's attribute of
 * that name (as 4D's ORDA objects have their attributes as properties), a property of the kind
 * (`length`), then a computed property or a function of the object's class: the project's class
 * (`cs.EmployeeEntity`, `cs.Employee`, `cs.EmployeeSelection`, `cs.DataStore`) when it extends
 * the ORDA class, else the ORDA class itself, whose functions are 4D's members (builtin-classes.ts).
 */
import type { ClassObject } from '../../runtime/context/class-object.js'
import { classEpoch } from '../../runtime/context/class-store.js'
import { currentRuntime } from '../../runtime/context/current.js'
import type { Runtime } from '../../runtime/context/runtime.js'
import {
  CLASS_OF,
  GET_MEMBER,
  MEMBER_FUNCTION,
  MISS,
  type ClassHost,
  type FunctionFinder,
  type FunctionHost,
  type MemberHost,
} from '../../runtime/values/host.js'
import type { OrdaKind } from '../orda-kind.js'
import type { World } from '../world-shape.js'

// The names of a dataclass's project classes (`EmployeeEntity`), each made once: made at each
// member call (`$e.save()` at each pass of a loop), the name was a new text that the class store's
// lookup hashed again (with the chain's walk, class-object.ts, ≈1 µs a call).
const classNames = new WeakMap<object, Partial<Record<'Entity' | 'Selection', string>>>()

/** The name of the project class of `kind` for the dataclass `dc` (`EmployeeEntity`). */
export function classNameOf(dc: { readonly name: string }, kind: 'Entity' | 'Selection'): string {
  let names = classNames.get(dc)
  if (names === undefined) classNames.set(dc, (names = {}))
  return (names[kind] ??= `${dc.name}${kind}`)
}

/** What a lookup answers when the name is not of its kind. */
export const NONE: unique symbol = Symbol('none') as never
export type Found = unknown

export abstract class OrdaHandle implements MemberHost, ClassHost, FunctionHost {
  // Fields declared and assigned, not defined (ES2022's class fields): a handle is made for each
  // entity a loop reaches and each relation read, and a defined field costs ~4× an assigned one.
  declare readonly world: World
  /**
   * Whether class code has had it as `This` (a `Function get`, a `Function set`), which may keep
   * it: a loop's entity is then never pointed at another member (selection-handle.ts, FOR_EACH).
   */
  declare shared: boolean

  constructor(world: World) {
    this.world = world
    this.shared = false
  }

  /** This handle as `This` of class code. */
  asThis(): this {
    this.shared = true
    return this
  }

  /**
   * `obj.name:=value` as the call of its class's setter in steps (`classSetterSteps`), for an
   * assignment of code in steps (orda/attribute-steps.ts `setAhead`, which has it through here).
   */
  setterSteps(name: string, value: unknown): Generator<void, void, void> | undefined {
    return classSetterSteps(this, name, value)
  }

  /** The object of core behind it. */
  abstract core(): unknown
  /** The ORDA class of its kind. */
  abstract get kind(): OrdaKind
  /** The name of the project class of this object (`EmployeeEntity`). */
  protected abstract get className(): string
  /** The value of the model's attribute `name`, or NONE when there is none. */
  protected abstract attribute(name: string): Found
  /** A property of the kind (`length`), or NONE. */
  protected property(_name: string): Found {
    return NONE
  }

  /**
   * What, beside the classes, decides what a name is for this object (its model: a dataclass's
   * definition, the datastore): two handles of one kind and one shape find a name alike.
   */
  protected abstract get shape(): object
  /** Whether `name` is the kind's own member (an attribute, a property), not its class's. */
  protected abstract ownsMember(name: string): boolean

  /** The class its functions come from: the project's, or the ORDA class. */
  classObject(rt: Runtime | undefined = runtimeNow()): ClassObject {
    const builtin = this.world.builtin(this.kind)
    const own = rt?.cs.get(this.className)
    return own !== undefined && this.world.extendsBuiltin(own, builtin) ? own : builtin
  }

  /** `OB Class`: the project's class (`cs.CarEntity`) when it has one, else the ORDA class. */
  [CLASS_OF](): ClassObject {
    return this.classObject()
  }

  [GET_MEMBER](name: string): unknown {
    const value = this.attribute(name)
    if (value !== NONE) return value
    const property = this.property(name)
    if (property !== NONE) return property
    const rt = runtimeNow()
    const cls = this.classObject(rt)
    const getter = cls.findGetter(name)
    if (getter !== undefined && rt !== undefined) return getter.invoke(rt, this.asThis(), [])
    return cls.findFunction(name)
  }

  /**
   * The finder of the function `name` names for the handles of this kind and shape seen by
   * `classes` (call-sites.ts): found as GET_MEMBER finds it; none when the name is the kind's own
   * member or a computed property, which GET_MEMBER finds before any function.
   */
  [MEMBER_FUNCTION](name: string, classes: object): FunctionFinder | undefined {
    const rt = runtimeNow()
    if (rt === undefined || rt.cs !== classes || this.ownsMember(name)) return undefined
    const cls = this.classObject(rt)
    if (cls.findGetter(name) !== undefined) return undefined
    const fn = cls.findFunction(name)
    if (fn === undefined) return undefined
    const kind = this.constructor
    const { world, shape } = this
    const epoch = classEpoch()
    return (target, seen) =>
      target instanceof OrdaHandle &&
      target.constructor === kind &&
      target.world === world &&
      seen === classes &&
      classEpoch() === epoch &&
      target.shape === shape
        ? fn
        : MISS
  }
}

/** The running context of the 4D code now running, if any (a host reading a handle has none). */
export function runtimeNow(): Runtime | undefined {
  try {
    return currentRuntime()
  } catch {
    return undefined
  }
}

/** `Function set name` of the object's class, run; false when it has none. */
export function classSetter(handle: OrdaHandle, name: string, value: unknown): boolean {
  const rt = runtimeNow()
  const setter = handle.classObject(rt).findSetter(name)
  if (setter === undefined || rt === undefined) return false
  setter.invoke(rt, handle.asThis(), [value])
  return true
}

/**
 * `classSetter` as work in steps (an assignment of 4D code in a call in slices): the call of
 * `Function set name` that the assigning code's generator goes into, `This` the handle as
 * `classSetter` gives it; undefined when the class has no such setter, or one without steps (the
 * assignment then runs it at once).
 */
export function classSetterSteps(
  handle: OrdaHandle,
  name: string,
  value: unknown,
): Generator<void, void, void> | undefined {
  const rt = runtimeNow()
  if (rt === undefined) return undefined
  const setter = handle.classObject(rt).findSetter(name)
  if (setter?.hasSteps !== true) return undefined
  return setter.steps(rt, handle.asThis(), [value]) as Generator<void, void, void> | undefined
}
