/**
 * @module A call whose code runs in steps: what a generator's call of a 4D function gets
 * (`rt.callSteps(…)`) when the callee has a generator too, which the caller then goes into with
 * `yield*` (compile/emit/context.ts `calling`). A call of anything else (a command, a collection
 * function, ORDA) answers its value at once, as `rt.call` does: only 4D code stops.
 */
export class Steps {
  constructor(readonly g: Generator<void, unknown, void>) {}
}
