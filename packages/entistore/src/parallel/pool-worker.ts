/**
 * @module The entry of the pool's worker threads (worker-pool.ts): each part it is sent runs
 * `KERNELS[kernel](args, from, to, cancel)` to its end, and its answer goes back: the value, the
 * rows done when the kernel saw the run's cancel flag raised (`KernelStopped`), or its error (an
 * error never ends the thread: the next part runs on it).
 */
import { parentPort } from 'node:worker_threads'
import { KERNELS, KernelStopped } from '@entistore/core/kernels'
import type { AnswerMessage, PartMessage, ReadyMessage } from './pool-messages.js'

const port = parentPort
if (!port) throw new Error('pool-worker.js is the entry of a worker thread, not a program')

port.postMessage({ ready: true } satisfies ReadyMessage)
port.on('message', (part: PartMessage) => {
  const answer = run(part)
  try {
    port.postMessage(answer)
  } catch (error) {
    // A value the structured clone refuses (a function, a class instance with one).
    port.postMessage(failed(part.id, error))
  }
})

function run({ id, kernel, args, from, to, cancel }: PartMessage): AnswerMessage {
  // Own names only: `toString` or `constructor` are not kernels.
  const fn = Object.hasOwn(KERNELS, kernel) ? KERNELS[kernel] : undefined
  if (!fn)
    return {
      id,
      error: new Error(`no kernel named '${kernel}' (kernels: ${Object.keys(KERNELS).join(', ')})`),
    }
  try {
    return { id, value: fn(args as never, from, to, cancel) }
  } catch (error) {
    if (error instanceof KernelStopped) return { id, stopped: error.rowsDone }
    return failed(id, error)
  }
}

function failed(id: number, error: unknown): AnswerMessage {
  return { id, error: error instanceof Error ? error : new Error(String(error)) }
}
