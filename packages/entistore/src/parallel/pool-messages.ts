/**
 * @module What the pool (worker-pool.ts) and its worker threads (pool-worker.ts) say to each
 * other: one message a part each way. Types only, so that the worker's entry stays a small file.
 */

/** A part to run, sent to a free worker. */
export interface PartMessage {
  /** The pool's number for this part, echoed in the answer. */
  readonly id: number
  readonly kernel: string
  readonly args: unknown
  readonly from: number
  readonly to: number
  /** The run's cancel flag (kernels.ts `cancelFlag`): shared, so raising it reaches a running part. */
  readonly cancel: Int32Array
}

/** A worker's answer to a part: its value, where the kernel stopped (cancelled), or its error. */
export type AnswerMessage =
  | { readonly id: number; readonly value: unknown }
  | { readonly id: number; readonly stopped: number }
  /** An Error crosses as itself (the structured clone keeps its class, message and stack). */
  | { readonly id: number; readonly error: Error }

/** A worker's first message: its entry and the kernels loaded (a thread dying before it cannot start). */
export interface ReadyMessage {
  readonly ready: true
}
