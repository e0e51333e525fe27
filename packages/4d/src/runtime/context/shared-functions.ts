/**
 * @module The functions that write their `This` as shared state, told to core as a write of it
 * (outside-state.ts): a `shared Function`, which 4D runs inside `Use (This)` (so it locks the
 * group of `This` as `Use` does: use-lock.ts), and any function of a process singleton (the
 * request's own state, which its functions change: not shared, so nothing is locked). The
 * compiler wraps them (compile/compile-class.ts).
 */
import { raise } from '../errors/fourd-error.js'
import { FourDFunction } from './function-object.js'
import { Entered, enterUse, leaveUse } from './use-lock.js'

/**
 * `fn` as a function that writes its `This` as shared state. What it was given to run with (its
 * class, which the class store sets on the function it holds) is handed on. Its steps, when it
 * has some, wait for the lock in steps as a `Use` block of a generator does.
 */
export function writingShared(fn: FourDFunction): FourDFunction {
  // What its steps entered last, given again to the next call's (use-lock.ts `Entered`): one
  // watch made a holder, not a call. Held weakly, so that a call dropped inside is collected.
  let last: WeakRef<Entered> | undefined
  return new FourDFunction(fn.name, {
    // Made when `fn` is: at the first call, or when a whole project's compile is measured.
    build: () => {
      fn.make()
      return (rt, self, args, context) => {
        fn.context = context
        const held = enterUse(rt, self, false) ?? raise('SharedInUse')
        try {
          return fn.invoke(rt, self, args)
        } finally {
          leaveUse(rt, held)
        }
      }
    },
    buildSteps: fn.hasSteps
      ? () =>
          function* (rt, self, args, context) {
            fn.context = context
            // Made before it waits: another call may give `fn` its context meanwhile.
            const steps = fn.steps(rt, self, args)!
            const previous = last?.deref()
            const held = enterUse(rt, self, true, previous) ?? (yield* rt.useWait(self, previous))
            if (held instanceof Entered && held !== previous) last = new WeakRef(held)
            try {
              return yield* steps
            } finally {
              leaveUse(rt, held)
            }
          }
      : undefined,
  })
}
