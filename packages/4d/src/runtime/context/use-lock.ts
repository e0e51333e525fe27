/**
 * @module `Use … End use` as 4D runs it (docs/Concepts/shared.md): `Use` locks the shared group
 * of its object (values/shared.ts) against the other processes until its `End use`, and a
 * process that meets the lock waits. Here a process is a call's running context (runtime.ts: a
 * request's code shares one), and the code of a call in slices may stop inside a `Use` block, so
 * another request's code may meet the lock:
 * - the holder enters again at will (a nested `Use` of the same group, a function it calls);
 * - code in a generator (compile/emit/context.ts, `steps`) waits in steps: it tries again at each
 *   of its steps, each a pass of its budget's, so a holder that never lets go ends it with 9410;
 * - code that cannot wait (a plain function: a getter, an event run whole, a worker's job) is
 *   refused with 9441 while a holder waits between two of its steps. A lock held by plain code
 *   only is held by code that called this one (plain code runs to its end before any other code
 *   runs): that code goes ahead, as it did before the lock.
 * The lock is let go at `End use` (the compiled block's `finally`, which a throw and the budget's
 * 9410 run too, and a close of the generator: core closes a read's work whose request is gone,
 * and each driver between closes the generator it drives, down to the block's). A generator a
 * driver drops inside a `Use` without closing it lets go only once it is collected.
 *
 * `Use` is also a write of shared state, told to core (`beginSharedWrite` …
 * `endSharedWrite`: outside-state.ts says why): while any `Use` is open, even between two steps of
 * its call, no kept `restrict` answer that read shared state is served, and its end drops them.
 * A reader of a shared object needs no `Use` (4D's other processes read it while it is in use).
 */
import { beginSharedWrite, endSharedWrite } from '@entistore/core'
import { groupOf, useOpened, type SharedGroup } from '../values/shared.js'

/** Whether a generator's `Use` is open: shared by what it entered and the watch on that. */
interface Opened {
  readonly group: SharedGroup
  readonly holder: object
  open: boolean
}

/**
 * What a generator's `Use` entered. The block keeps it (in a temporary of its call) and gives it
 * again at its next entry, in a loop: one is made, and watched for being dropped, per block and
 * call, not per entry.
 */
export class Entered {
  constructor(readonly opened: Opened) {}
}

/**
 * What `Use` entered, given back at `End use`: a plain function's, the group it holds; a
 * generator's, an `Entered`; false for a `Use` that locks nothing (its object not shared, or
 * gone ahead). Never nullish: undefined is `enterUse`'s "wait".
 */
export type Held = SharedGroup | Entered | false

// A generator closed goes through its `finally`. One dropped inside a `Use` without being closed
// lets go of the lock once what it entered is collected: a fallback, for the drivers of steps
// close what they hold when they are closed (core's `runSteps` and query/row-steps.ts `rowsAlone`,
// ProjectRunner.stepsOf, orda/attribute-steps.ts `rest`); a driver that did not would otherwise
// leave the group locked until the process ends.
const dropped = new FinalizationRegistry<Opened>((opened) => {
  if (!opened.open) return
  opened.open = false
  release(opened.group, opened.holder, true)
  ended()
})

/**
 * Enters `Use (target)` for `holder` (a running context) from a generator's code (`steps`, given
 * what the same block entered last, `previous`) or a plain function's: what to give back at
 * `End use`, or undefined when another holder may be waiting between its steps inside a `Use` of
 * the group (`steps`: try again later; plain: refused).
 */
export function enterUse(
  holder: object,
  target: unknown,
  steps: boolean,
  previous?: Held,
): Held | undefined {
  const group = typeof target === 'object' && target !== null ? groupOf(target) : undefined
  let held: Held = false
  if (group !== undefined) {
    if (group.holder === undefined || group.holder === holder) {
      group.holder = holder
      group.depth++
      if (steps) {
        group.stepping++
        held = entered(group, holder, previous)
      } else held = group
    } else if (group.stepping > 0) return undefined
  }
  useOpened(1)
  beginSharedWrite()
  return held
}

/** `End use` of what `enterUse` gave `holder`. */
export function leaveUse(holder: object, held: Held): void {
  if (held instanceof Entered) {
    const opened = held.opened
    opened.open = false
    release(opened.group, opened.holder, true)
  } else if (held !== false) release(held, holder, false)
  ended()
}

// A `Use` ended: its write of shared state told.
function ended(): void {
  useOpened(-1)
  endSharedWrite()
}

// What a generator's `Use` entered: `previous` again when it was the same group's, else new.
function entered(group: SharedGroup, holder: object, previous: Held | undefined): Entered {
  if (
    previous instanceof Entered &&
    previous.opened.group === group &&
    previous.opened.holder === holder &&
    !previous.opened.open
  ) {
    previous.opened.open = true
    return previous
  }
  const opened: Opened = { group, holder, open: true }
  const made = new Entered(opened)
  dropped.register(made, opened)
  return made
}

function release(group: SharedGroup, holder: object, steps: boolean): void {
  if (group.holder !== holder) return
  if (steps) group.stepping--
  if (--group.depth === 0) group.holder = undefined
}
