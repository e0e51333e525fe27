/**
 * @module How deep 4D calls nest on this thread, bounded so that no 4D code reaches the end of
 * the stack. Reaching it is not always an error Node can catch: V8 compiles a regular expression
 * at its first use, and one compiled within a few kilobytes of the stack's end aborts the
 * process ("RegExpCompiler Allocation failed", research/preemption.md §4). A 4D function that
 * calls itself, then reads, met exactly that. So every call counts here, across every running
 * context (they share the thread's one stack), and a call past the project's `callDepth`, or one
 * that finds less than PROBE_FRAMES of stack left, fails with 9438 while plenty remains to
 * build the error and unwind.
 *
 * The count alone is not enough: a level of 4D code that goes through core (a query whose
 * filter reads a computed attribute whose getter calls a function) takes many more frames than
 * a plain call, so such a level counts as THROUGH_CORE calls (project-runner.ts). And from
 * PROBE_FROM levels on, every PROBE_EVERY-th level measures the stack left by recursing
 * PROBE_FRAMES deep: code that stays shallow, recursive code such as `fib` included, never
 * pays for it (a probe at every 16th level cost fib(22) 45 times its time).
 */
import { raise } from '../errors/fourd-error.js'
import { limits } from '../values/limits.js'

/** Levels between two measures of the stack left, from PROBE_FROM levels on. */
const PROBE_EVERY = 64
const PROBE_FROM = 256
/** What a level that goes through core (a getter a query calls, an event) counts for. */
export const THROUGH_CORE = 8
/** Frames of `probe` that must fit: about 100 KB, far more than any error's making needs. */
const PROBE_FRAMES = 1_000

let depth = 0

// One small frame a level; the result is used, so that no call is dropped.
function probe(n: number): number {
  return n === 0 ? 0 : probe(n - 1) + 1
}

function stackLeft(): boolean {
  try {
    return probe(PROBE_FRAMES) === PROBE_FRAMES
  } catch (e) {
    if (e instanceof RangeError) return false
    throw e
  }
}

/** Counts a call entered (`levels` of them); 9438 when it nests too deep (then none is). */
export function enterCall(levels = 1): void {
  const d = (depth += levels)
  if (d > limits().callDepth || (d >= PROBE_FROM && d % PROBE_EVERY < levels && !stackLeft())) {
    depth -= levels
    raise('StackFull', { depth: depth })
  }
}

/** Counts a call left (in a `finally`: a call that threw has left too). */
export function leaveCall(levels = 1): void {
  depth -= levels
}

/** The calls nested now (tests). */
export function callDepth(): number {
  return depth
}

/**
 * Sets the calls nested now: a call run in slices (project/sliced-call.ts) takes its own levels
 * out while it waits for its next slice, and puts them back when it goes on.
 */
export function setCallDepth(n: number): void {
  depth = n
}
