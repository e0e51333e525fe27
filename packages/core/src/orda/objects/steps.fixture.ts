/**
 * @module For the tests of work in steps (save-steps.test.ts, writes/event-steps.test.ts,
 * writes/transaction-steps.test.ts): the work run to its end as a driver runs it, its stops
 * counted.
 */

/** Runs `work` to its end: its value, and how many times it stopped. */
export function driven<T>(work: Generator<unknown, T, void>): { value: T; stops: number } {
  let stops = 0
  for (;;) {
    const r = work.next()
    if (r.done === true) return { value: r.value, stops }
    stops++
  }
}
