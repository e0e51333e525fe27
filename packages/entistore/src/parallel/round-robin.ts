/**
 * @module The pool's waiting line: runs queued by client, served client by client in turn, so
 * that one client's ten heavy runs cannot starve another's one (each free worker takes a part of
 * the next client's oldest run, and that client goes to the back of the line).
 */
export class RoundRobin<T> {
  // A Map iterates in insertion order: its first key is the client whose turn it is.
  readonly #queues = new Map<string, T[]>()

  /** Queues `item` behind `client`'s earlier ones (a new client joins at the back of the line). */
  push(client: string, item: T): void {
    const queue = this.#queues.get(client)
    if (queue) queue.push(item)
    else this.#queues.set(client, [item])
  }

  /**
   * The oldest item of the client whose turn it is, left in place (`remove` it once it has
   * nothing more to give); that client goes to the back of the line.
   */
  take(): T | undefined {
    const first = this.#queues.entries().next()
    if (first.done) return undefined
    const [client, queue] = first.value
    this.#queues.delete(client)
    this.#queues.set(client, queue)
    return queue[0]
  }

  /** Takes `item` out of `client`'s queue (done, cancelled or failed). */
  remove(client: string, item: T): void {
    const queue = this.#queues.get(client)
    const at = queue?.indexOf(item) ?? -1
    if (at < 0) return
    queue!.splice(at, 1)
    if (queue!.length === 0) this.#queues.delete(client)
  }
}
