/**
 * @module What every kernel shares: its signature, and the cancel flag it reads (an Int32Array
 * over a SharedArrayBuffer: non-zero stops it at its next check).
 */

/** Rows between two reads of the cancel flag (a fraction of a millisecond of any kernel). */
export const CHECK_ROWS = 65_536

/**
 * Row ids a block of `numberStats` sums (a multiple of the query budget's step, 4,096 rows, so
 * that on the calling thread each step is one block and the budget is read as often as before).
 */
export const SUM_BLOCK = 4096

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
