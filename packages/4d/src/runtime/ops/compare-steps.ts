/**
 * @module The comparison operators in a generator of 4D code (compile/emit/operators.ts): `=`,
 * `#`, `<`, `>`, `<=`, `>=` and `%` answer the operator's value at once, as `eq`, `lt`… do, or,
 * for two texts one of which is longer than a piece, its work in steps (values/text-compare-steps.ts),
 * which the generator goes into (`yield*`), as it goes into a call's. They join the running
 * context's prototype (runtime/index.ts).
 */
import type { Passes } from '../values/passes.js'
import {
  compareTextsSteps,
  containsKeywordSteps,
  longTexts,
  textEqualsSteps,
} from '../values/text-compare-steps.js'
import type { Work } from '../values/work.js'
import { mod } from './arithmetic.js'
import { eq, ge, gt, le, lt, ne } from './compare.js'
import { Steps } from './steps.js'

const long = (a: unknown, b: unknown): a is string =>
  typeof a === 'string' && typeof b === 'string' && longTexts(a, b)

function* not(work: Work<boolean>): Work<boolean> {
  return !(yield* work)
}

function* ordered(work: Work<number>, test: (order: number) => boolean): Work<boolean> {
  return test(yield* work)
}

/** An ordering of two texts in steps, or `plain`'s value at once. */
const ordering = (plain: (a: unknown, b: unknown) => boolean, test: (order: number) => boolean) =>
  function (this: Passes, a: unknown, b: unknown): unknown {
    return long(a, b)
      ? new Steps(ordered(compareTextsSteps(this, a, b as string), test))
      : plain(a, b)
  }

export const COMPARE_STEPS = {
  eqSteps(this: Passes, a: unknown, b: unknown): unknown {
    return long(a, b) ? new Steps(textEqualsSteps(this, a, b as string)) : eq(a, b)
  },
  neSteps(this: Passes, a: unknown, b: unknown): unknown {
    return long(a, b) ? new Steps(not(textEqualsSteps(this, a, b as string))) : ne(a, b)
  },
  ltSteps: ordering(lt, (c) => c < 0),
  gtSteps: ordering(gt, (c) => c > 0),
  leSteps: ordering(le, (c) => c <= 0),
  geSteps: ordering(ge, (c) => c >= 0),
  modSteps(this: Passes, a: unknown, b: unknown): unknown {
    return long(a, b) ? new Steps(containsKeywordSteps(this, a, b as string)) : mod(a, b)
  },
}
