/**
 * @module The CLI's `--delay` and `--fail-rate`: a slow or flaky backend on purpose, to test how a
 * client copes with one. A thin wrapper in front of the node listener (serve's `wrapListener`): the
 * REST interface behind it is unchanged.
 *
 * Each request waits its delay first (a fixed time, or one drawn from a range), then a drawn share
 * of them is answered 503 with the interface's own `__ERROR` body (InjectedFailure, 9095) instead
 * of being served. Randomness and time are injected: `seededRandom(seed)` repeats the same
 * sequence of draws for the same seed, and a test's timer decides when a delay is over.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { datastoreError } from '@entistore/core'
import { realSchedule, type RestCore, type Schedule } from '@entistore/rest'

/** A delay in milliseconds: every request waits from `min` to `max` (drawn evenly). */
export interface DelayRange {
  readonly min: number
  readonly max: number
}

export interface ChaosOptions {
  readonly delay?: DelayRange
  /** The share of requests, from 0 to 1, answered with an error. @default 0 */
  readonly failRate?: number
  /** Draws from [0, 1). @default Math.random */
  readonly random?: () => number
  /** Runs `fn` after `ms` milliseconds; returns the function that cancels it. @default setTimeout */
  readonly schedule?: Schedule
}

// One kind of timer for the whole server: the REST handler's (a function call's time limit) is
// this package's too (the shutdown deadline, the delays here, the workers' restarts).
export { realSchedule, type Schedule }

/**
 * A small seeded generator (mulberry32): the same seed gives the same draws, so a flaky run can be
 * replayed with `--seed`. Not for anything that needs to be unpredictable.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The failure rate as the error message says it: `25%`, `2.5%`. */
const percent = (rate: number): string => `${Math.round(rate * 10000) / 100}%`

/** `listener` behind the delays and failures of `options`. */
export function chaosListener(
  listener: RequestListener,
  core: Pick<RestCore, 'refuse'>,
  options: ChaosOptions,
): RequestListener {
  const random = options.random ?? Math.random
  const schedule = options.schedule ?? realSchedule
  const failRate = options.failRate ?? 0
  const delay = options.delay
  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    if (failRate > 0 && random() < failRate) {
      // The request's headers: a page on another origin reads the 503 (CORS answers its Origin).
      const reply = core.refuse(datastoreError('InjectedFailure', [percent(failRate)]), req)
      res.writeHead(reply.status, reply.headers)
      res.end(typeof reply.body === 'string' ? reply.body : '')
      return
    }
    void listener(req, res)
  }
  if (delay === undefined || delay.max === 0) return answer
  return (req, res) => {
    const ms = delay.min + Math.floor(random() * (delay.max - delay.min + 1))
    const cancel = schedule(() => {
      res.off('close', cancel)
      answer(req, res)
    }, ms)
    // A connection closed while its request waits (the client gone, or the server closing on
    // SIGINT, which closes every connection) gets no answer, and its timer must not keep the
    // process alive for up to the longest delay.
    res.once('close', cancel)
  }
}
