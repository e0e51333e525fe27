/**
 * @module The two forms of a command whose long work is one plain loop that gives way
 * (values/resumable.ts): its `impl` runs the loop at once, with no generator (one made at each
 * call costs some 85 ns, as much as a short `Split string` does), its `steps` (values/work.ts)
 * stop where it gives way. A loop in a generator runs slower than in a plain function (4× for a
 * sum over 10M elements on Node 20), hence a plain loop in both forms. The loop is the command's
 * own (`byWork`), or a scan of positions a block at a time (`scanning`).
 */
import { runAll, scanNow, scanSteps, type Resumable, type Scan } from '../values/resumable.js'
import type { Passes } from '../values/passes.js'
import type { CommandContext, CommandSpec } from './table.js'

/** A command's call made ready: its work, and what it gives once the work is done. */
export interface CommandWork {
  readonly work: Resumable
  done(): unknown
}

/** The `impl` and `steps` of a command whose call `prepare` makes ready (its arguments read). */
export function byWork(
  prepare: (rt: CommandContext, ...args: unknown[]) => CommandWork,
): Required<Pick<CommandSpec, 'impl' | 'steps'>> {
  return {
    impl: (rt, ...args) => {
      const call = prepare(rt, ...args)
      runAll(call.work, rt)
      return call.done()
    },
    steps: function* (rt, ...args) {
      const call = prepare(rt, ...args)
      while (!call.work(rt)) {
        rt.tick()
        yield
      }
      return call.done()
    },
  }
}

/**
 * The `impl` and `steps` of a command whose work is the scan `prepare` makes of its arguments
 * (nothing: no work; values/resumable.ts). The steps go through it a block at a time. The plain
 * call goes through a scan of a block at most at once, counted, with no generator made (small
 * arrays are most calls, and the generators were most of their time: `COPY ARRAY` of 10 elements
 * took twice as long), and through a larger one a block at a time.
 */
export function scanning(
  prepare: (rt: Passes, args: unknown[]) => Scan | undefined,
): Required<Pick<CommandSpec, 'impl' | 'steps'>> {
  return {
    impl(rt, ...args) {
      const scan = prepare(rt, args)
      return scan && scanNow(rt, scan)
    },
    *steps(rt, ...args) {
      const scan = prepare(rt, args)
      return scan && (yield* scanSteps(rt, scan))
    },
  }
}
