/**
 * @module The classes of the built-in class store `4D` (context/class-store.ts) that are values here: a
 * name, a superclass, `new()`, and the test `OB Instance of` asks (`isInstance`).
 */
import type { Runtime } from '../context/runtime.js'
import { GET_MEMBER, type MemberHost } from '../values/host.js'
import { newObject } from '../values/kinds.js'
import { FourDFunction } from '../context/function-object.js'
import { markShared } from '../values/shared.js'

/**
 * `4D.Object`: every object is an instance of it (`OB Instance of($poly;4D.Object)` is True,
 * classes.md); it has no superclass (ClassClass.md) and `new()` gives an empty object.
 */
export const OBJECT_CLASS = builtinClass(
  'Object',
  null,
  (v) => typeof v === 'object' && v !== null,
  () => newObject(),
)

/** `4D.Function`: the class of formulas and class functions (FunctionClass.md). */
export const FUNCTION_CLASS = builtinClass(
  'Function',
  OBJECT_CLASS,
  (v) => v instanceof FourDFunction,
)

export type BuiltinClass = MemberHost & { isInstance(v: unknown): boolean }

/** A class of the `4D` store that 4D code can test with `OB Instance of` and read. */
export function builtinClass(
  name: string,
  superclass: BuiltinClass | null,
  isInstance: (v: unknown) => boolean,
  make?: (rt: Runtime, args: unknown[]) => unknown,
): BuiltinClass {
  const construct =
    make === undefined ? undefined : new FourDFunction('new', (rt, _self, args) => make(rt, args))
  return markShared({
    isInstance,
    [GET_MEMBER](member: string): unknown {
      if (member === 'name') return name
      if (member === 'superclass') return superclass
      if (member === 'isShared' || member === 'isSingleton' || member === 'isSessionSingleton')
        return false
      if (member === 'new') return construct
      return undefined
    },
  })
}
