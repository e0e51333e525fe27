/**
 * @module A worker thread that 4D code calls synchronously, as 4D's commands wait for their result,
 * for work Node only does asynchronously (sharp's conversions, an HTTP request). The caller posts
 * a message and waits on a shared word (`Atomics.wait`) that the worker sets once it has posted
 * its reply, then takes the reply from the port at once (`receiveMessageOnPort`): the waiting
 * thread runs no event loop. The worker starts at the first call and keeps no process alive.
 *
 * The worker's script is text (no file to ship beside the build): a `handle(message)` function,
 * async, whose value is the reply, run by the loop below; a thrown error becomes `{ error }`.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads'

export class SyncWorker<Message, Reply> {
  #port: MessagePort | undefined
  readonly #signal = new Int32Array(new SharedArrayBuffer(4))

  constructor(
    /** The script: it defines `async function handle(message)`; `workerData.data` is `data`. */
    private readonly script: string,
    private readonly data: Record<string, unknown>,
    /** How long a call may wait, in milliseconds, before it fails. */
    private readonly timeoutMs: number,
  ) {}

  /** The worker's reply to `message`; throws its error, or when it takes longer than allowed. */
  call(message: Message, timeoutMs = this.timeoutMs): Reply {
    const port = this.#start()
    Atomics.store(this.#signal, 0, 0)
    port.postMessage(message)
    const waited = Atomics.wait(this.#signal, 0, 0, timeoutMs)
    const reply = receiveMessageOnPort(port)?.message as
      { value?: Reply; error?: string } | undefined
    if (waited === 'timed-out' || reply === undefined)
      throw new Error(`it took more than ${timeoutMs / 1000} s`)
    if (reply.error !== undefined) throw new Error(reply.error)
    return reply.value!
  }

  #start(): MessagePort {
    if (this.#port !== undefined) return this.#port
    const { port1, port2 } = new MessageChannel()
    const worker = new Worker(`${this.script}\n${LOOP}`, {
      eval: true,
      workerData: { data: this.data, port: port2, signal: this.#signal },
      transferList: [port2],
    })
    worker.unref()
    // The port is read by receiveMessageOnPort only: it must not hold the process open either.
    port1.unref()
    this.#port = port1
    return port1
  }
}

// One message at a time: the caller waits for each reply before it posts the next.
const LOOP = `
const { port, signal } = require('node:worker_threads').workerData
port.on('message', async (message) => {
  let reply
  try {
    reply = { value: await handle(message) }
  } catch (e) {
    reply = { error: String((e && e.message) || e) }
  }
  port.postMessage(reply)
  Atomics.store(signal, 0, 1)
  Atomics.notify(signal, 0)
})
`
