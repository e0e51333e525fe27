/**
 * @module The kernels: the data-sized loops a worker thread runs over shared columns, written as
 * pure functions of typed arrays so that the calling thread runs the very same code when there is
 * no pool (its answers are then the same, bit for bit). Each takes its arguments, a row range and
 * a cancel flag (an Int32Array over a SharedArrayBuffer: non-zero stops it at its next check,
 * every `CHECK_ROWS` rows), and returns a structured-cloneable result.
 */

/** Rows between two reads of the cancel flag (a fraction of a millisecond of any kernel). */
export const CHECK_ROWS = 65_536

/** A kernel: `(args, from, to, cancel)`, throwing `KernelStopped` when the flag is raised. */
export type Kernel = (args: never, from: number, to: number, cancel: Int32Array) => unknown

/** Thrown by a kernel that saw its cancel flag raised. */
export class KernelStopped extends Error {
  constructor(readonly rowsDone: number) {
    super('the kernel was cancelled')
    this.name = 'KernelStopped'
  }
}

/** Raises `KernelStopped` when `cancel` says so; `done`: the rows read so far. */
export function checkCancel(cancel: Int32Array, done: number): void {
  if (Atomics.load(cancel, 0) !== 0) throw new KernelStopped(done)
}

/** A new cancel flag, over a SharedArrayBuffer a worker reads too. */
export function cancelFlag(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4))
}

/** The sum of `column[from..to)`, NaN (null) skipped: the pool's smallest kernel (its tests). */
function sumColumn(args: { column: Float64Array }, from: number, to: number, cancel: Int32Array) {
  const { column } = args
  let sum = 0
  for (let at = from; at < to; at += CHECK_ROWS) {
    checkCancel(cancel, at - from)
    const end = Math.min(to, at + CHECK_ROWS)
    for (let i = at; i < end; i++) {
      const v = column[i]!
      if (v === v) sum += v
    }
  }
  return sum
}

/** Every kernel, by the name a pool is asked for. */
export const KERNELS: Readonly<Record<string, Kernel>> = {
  sumColumn: sumColumn as Kernel,
}
