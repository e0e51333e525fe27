/**
 * @module The two forms of a command whose long work is one plain loop that gives way
 * (values/resumable.ts): its `impl` runs the loop at once, with no generator (one made at each
 * call costs some 85 ns, as much as a short `Split string` does), its `steps` (values/work.ts)
 * stop where it gives way. A loop in a generator runs slower than in a plain function (4× for a
 * sum over 10M elements on Node 20), hence a plain loop in both forms.
 */
import { runAll, type Resumable } from '../values/resumable.js'
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
