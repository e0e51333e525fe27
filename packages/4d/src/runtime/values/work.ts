/**
 * @module A builtin's long work written once, as steps: a generator that stops (`yield`) where the
 * budget's check falls (`if ((rt.ticks -= n) < 0) { rt.tick(); yield }`), as compiled 4D code
 * stops at its loops' checks (compile/emit/context.ts `tick`). A call in slices
 * (project/sliced-call.ts) goes into it with `yield*` and may end its slice at any stop, so a sort
 * of millions of elements or the upper-casing of a long text holds no other client; any other
 * caller runs it to its end at once (`finish`), the stops costing a test of a number each.
 *
 * Between two slices other requests run. A builtin that changes a value in steps works on a copy
 * and puts it in place at its last step, so that the change is whole or not made (a call the
 * budget ends leaves the value as it was).
 */

/** Work done in steps, whose value is a T. */
export type Work<T> = Generator<void, T, void>

/** `work` run to its end at once: what a call not in slices (a plain function) does. */
export function finish<T>(work: Work<T>): T {
  for (;;) {
    const r = work.next()
    if (r.done === true) return r.value
  }
}

/**
 * The plain form of a builtin written as steps alone (a command's, a collection function's): its
 * steps run to their end at once (`finish`), at each call.
 */
export function plainOf<A extends unknown[], T>(steps: (...args: A) => Work<T>): (...args: A) => T {
  return (...args) => finish(steps(...args))
}
