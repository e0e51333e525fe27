/**
 * @module The functions that write their `This` as shared state, told to core as a write of it
 * (outside-state.ts): a `shared Function`, which 4D runs inside `Use (This)`, and any function of a
 * process singleton (the request's own state, which its functions change). The compiler wraps
 * them (compile/compile-class.ts).
 */
import { beginSharedWrite, endSharedWrite } from '@entistore/core'
import { FourDFunction } from './function-object.js'

/**
 * `fn` as a function that writes its `This` as shared state. What it was given to run with (its
 * class, which the class store sets on the function it holds) is handed on.
 */
export function writingShared(fn: FourDFunction): FourDFunction {
  return new FourDFunction(fn.name, {
    // Made when `fn` is: at the first call, or when a whole project's compile is measured.
    build: () => {
      fn.make()
      return (rt, self, args, context) => {
        fn.context = context
        beginSharedWrite()
        try {
          return fn.invoke(rt, self, args)
        } finally {
          endSharedWrite()
        }
      }
    },
  })
}
