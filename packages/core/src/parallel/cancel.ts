/**
 * @module How a kernel is stopped: a cancel flag (an Int32Array over a SharedArrayBuffer, raised by
 * the pool's `cancel()`) that every kernel reads every `CHECK_ROWS` rows. Below the kernels' files
 * (kernels.ts re-exports it), so that a family of kernels in a file of its own imports it without
 * a circle.
 */

/** Rows between two reads of the cancel flag (a fraction of a millisecond of any kernel). */
export const CHECK_ROWS = 65_536

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
