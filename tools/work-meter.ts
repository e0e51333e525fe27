/**
 * @module Counting work instead of timing it, for tests that keep an algorithm's growth in check
 * ("loading is linear") without the noise of a clock.
 *
 * V8's precise coverage with call counts reports how many times every function and every block
 * (loop body, branch) of every script ran. The sum over the files of interest is a deterministic
 * measure of the JavaScript work a call did: the same on a loaded machine as on an idle one. It
 * does not see loops inside builtins that call no JavaScript (`Array.includes`, `splice`), only
 * callbacks they call (`some`, `sort` comparators): the code under test should keep its lookups in
 * Maps and Sets anyway.
 *
 * Three V8 facts shape the API:
 * - block counters are compiled into a function's bytecode when it is first compiled while
 *   coverage is on, so the code to count must be imported after counting starts: `countWork`
 *   takes a `load` that imports it, and a test file using it imports that code through it only;
 * - stopping coverage removes the counters for good, so once started it stays on for the process
 *   (vitest runs each test file in a process of its own);
 * - optimized code (TurboFan, and Maglev's on-stack replacement of hot loops) does not keep the
 *   counters, so the process stays in the interpreter and baseline tiers, which do.
 */
import { Session } from 'node:inspector/promises'
import { setFlagsFromString } from 'node:v8'

let session: Session | undefined

async function started(): Promise<Session> {
  if (session) return session
  setFlagsFromString('--no-opt')
  setFlagsFromString('--no-maglev')
  const s = new Session()
  s.connect()
  await s.post('Profiler.enable')
  // Starting precise coverage also drops all optimized code.
  await s.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true })
  session = s
  return s
}

/**
 * The number of function calls and block executions, in scripts whose URL contains `where` (test
 * files left out unless `includeTests`), of the function that `load` returns. `load` imports the
 * code under test (see the module comment) and returns the work to measure. The work runs twice
 * and only the second run is counted: the first pays one-time costs (lazy compilation,
 * module-level caches) that are no part of the algorithm.
 */
export async function countWork(
  where: string,
  load: () => Promise<() => unknown>,
  options: { includeTests?: boolean } = {},
): Promise<number> {
  const s = await started()
  const run = await load()
  run()
  // Taking coverage resets the counters: what is taken next is what the second run executed.
  await s.post('Profiler.takePreciseCoverage')
  run()
  const { result } = await s.post('Profiler.takePreciseCoverage')
  let total = 0
  for (const script of result) {
    if (!script.url.includes(where)) continue
    if (script.url.includes('.test.') && !options.includeTests) continue
    for (const fn of script.functions) for (const range of fn.ranges) total += range.count
  }
  return total
}
