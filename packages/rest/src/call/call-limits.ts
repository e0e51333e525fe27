/**
 * @module What a REST call of a class function may ask of the server, checked by the handler around
 * the function, which cannot be trusted to bound itself:
 * - how many arguments it is passed (`maxFunctionArguments`): the function receives them spread
 *   (`fn(...args)`), and a spread of hundreds of thousands fails inside the call with a
 *   RangeError, which would be reported as the function's own failure (422 9100). The count is
 *   refused before anything else is done with the arguments (400 9011);
 * - how long an async one may take to settle (`functionTimeoutMs`): a Promise that never settles
 *   would hold its request, and its connection, forever. Past the limit the request is answered
 *   with FunctionTimedOut (504 9106); a settlement that comes later is ignored. The function is not
 *   stopped (JavaScript cannot stop a Promise): what it writes later is written, unanswered.
 * Timers come from a `Schedule` (setTimeout by default) so that tests decide when time passes.
 */
import { datastoreError, fail, functionText, type FunctionInfo } from '@entistore/core'
import { realSchedule, type Schedule } from '../schedule.js'

/** The limits of a call, as the handler resolved its options. */
export interface CallLimits {
  /** Most arguments a call may pass; Infinity: no limit. */
  readonly maxArguments: number
  /** Milliseconds an async function may take; Infinity: no limit. */
  readonly timeoutMs: number
  readonly schedule: Schedule
}

/** The longest delay setTimeout keeps: a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647

/**
 * The limits from the handler's options. Infinity means none; so does a time of 0 (as for the query
 * budget) or one longer than a timer can wait (about 24.8 days). Throws a RangeError for a value
 * that is no count or time.
 */
export function callLimits(options: {
  readonly maxFunctionArguments?: number | undefined
  readonly functionTimeoutMs?: number | undefined
  readonly schedule?: Schedule | undefined
}): CallLimits {
  const maxArguments = options.maxFunctionArguments ?? 1000
  const timeoutMs = options.functionTimeoutMs ?? 30_000
  if (!(maxArguments >= 0))
    throw new RangeError(`maxFunctionArguments must be a number >= 0, not ${maxArguments}`)
  if (!(timeoutMs >= 0))
    throw new RangeError(`functionTimeoutMs must be a number >= 0, not ${timeoutMs}`)
  return {
    maxArguments,
    timeoutMs: timeoutMs === 0 || timeoutMs > MAX_TIMER_MS ? Infinity : timeoutMs,
    schedule: options.schedule ?? realSchedule,
  }
}

/** Refuses a call of `fn` with more than `limits.maxArguments` arguments: 400 LimitExceeded (9011). */
export function checkArgumentCount(fn: FunctionInfo, count: number, limits: CallLimits): void {
  if (count > limits.maxArguments)
    fail(
      'LimitExceeded',
      [`${count} arguments to the function ${functionText(fn)}`, limits.maxArguments],
      {
        details: { parameter: 'maxFunctionArguments' },
      },
    )
}

/**
 * `result` (what an async `fn` returned), or FunctionTimedOut if it has not settled within
 * `limits.timeoutMs`. The timer is cancelled when it settles; a settlement after the limit changes
 * nothing, and a rejection then is not left unhandled.
 */
export function withTimeLimit(
  fn: FunctionInfo,
  result: PromiseLike<unknown>,
  limits: CallLimits,
): Promise<unknown> {
  const settled = Promise.resolve(result)
  if (limits.timeoutMs === Infinity) return settled
  return new Promise((resolve, reject) => {
    const cancel = limits.schedule(
      () => reject(datastoreError('FunctionTimedOut', [functionText(fn), limits.timeoutMs])),
      limits.timeoutMs,
    )
    settled.then(
      (value) => {
        cancel()
        resolve(value)
      },
      (error: unknown) => {
        cancel()
        reject(error)
      },
    )
  })
}
