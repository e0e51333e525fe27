/**
 * @module How long a live feed takes to tell its subscribers of a write (issue 50), and what an
 * idle subscriber costs: for any feed given as a `Subscribe` function, so that the datastore's
 * `ds.changes`, a hand-written pub/sub (the floor) and server-sent events over HTTP are measured by
 * the same loop.
 *
 * One write at a time: the next is made only once every subscriber has received the last, so that
 * a figure is one event's way from the acknowledged write to each subscriber (the last of 1,000
 * waits behind the 999 before it: that is the cost of many subscribers, and it is counted). The
 * clock starts when the write is acknowledged (the call returned, the reply received); an event
 * that arrives before that (a server may send it before its reply) counts as 0 and is counted.
 */
import { usedBytes } from './timing.ts'

/** What a subscriber is told: the event's type (`created`, `updated`, `heartbeat`…). */
export interface FeedEvent {
  readonly type: string
}

/** A subscriber, once opened: `ready` once it is listening, `close` ends it. */
export interface Subscriber {
  readonly ready: Promise<void>
  close(): void
}

/** Opens one subscriber that calls `onEvent` for each event it receives. */
export type Subscribe = (onEvent: (e: FeedEvent) => void) => Subscriber

/** A feed as the suite measures it: its subscribers, and a write that each must hear of. */
export interface FeedTarget {
  readonly label: string
  readonly subscribe: Subscribe
  /** Write number `i`: returns once it is acknowledged, or a promise that resolves then. */
  write(i: number): unknown
}

export interface Latency {
  readonly subscribers: number
  readonly writes: number
  /** From each write's acknowledgement to each subscriber's event, ms, sorted. */
  readonly sorted: Float64Array
  /**
   * From each write's call (the request sent) to each subscriber's event, ms, sorted: where a
   * server acknowledges a write only once its events are out (a cluster that waits for every
   * process), the time from the acknowledgement is 0 and this is the one that says something.
   */
  readonly fromSend: Float64Array
  /** Events that arrived before their write was acknowledged (counted as 0 above). */
  readonly beforeAck: number
  /** Events of the writes received (must be subscribers × writes). */
  readonly received: number
}

/** A feed's latency at one subscriber count, as the suite reports it. */
export interface FeedRow {
  readonly impl: string
  readonly latency: Latency
}

/** What an idle subscriber costs: bytes a subscriber, and of what (`what`: heap, RSS…). */
export interface IdleRow {
  readonly impl: string
  readonly bytes: number
  readonly subscribers: number
  readonly what: string
}

const nowMs = (): number => performance.now()
/** One turn of the event loop: whatever a write started is done (timers and I/O included). */
const turn = (): Promise<void> => new Promise((r) => setImmediate(r))

/** Events that say nothing of a write. */
const QUIET = new Set(['heartbeat'])

/**
 * `writes` writes through `target` with `subscribers` subscribers open, one write at a time
 * (module note); rejects if a write's events have not all arrived within `timeoutMs`.
 */
export async function measureLatency(
  target: FeedTarget,
  subscribers: number,
  writes: number,
  timeoutMs = 30_000,
): Promise<Latency> {
  let arrivals: number[] = []
  let wake: (() => void) | undefined
  let received = 0
  const unexpected: string[] = []
  const onEvent = (e: FeedEvent): void => {
    if (QUIET.has(e.type)) return
    if (e.type !== 'created' && e.type !== 'updated') {
      unexpected.push(e.type)
      return
    }
    arrivals.push(nowMs())
    received++
    if (arrivals.length === subscribers) wake?.()
  }
  const subs = Array.from({ length: subscribers }, () => target.subscribe(onEvent))
  const sorted = new Float64Array(subscribers * writes)
  const fromSend = new Float64Array(subscribers * writes)
  let beforeAck = 0
  try {
    await Promise.all(subs.map((s) => s.ready))
    for (let w = 0; w < writes; w++) {
      await turn()
      arrivals = []
      const all = new Promise<void>((resolve) => (wake = resolve))
      // A write that returns no promise is acknowledged when it returns: the clock starts before
      // any microtask (a subscriber woken by the commit) runs.
      const sent = nowMs()
      const pending = target.write(w)
      if (pending instanceof Promise) await pending
      const ack = nowMs()
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<void>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(
                `${target.label}: ${arrivals.length} of ${subscribers} subscribers heard of write ${w} ` +
                  `within ${timeoutMs / 1000} s${unexpected.length ? `; other events: ${unexpected.slice(0, 3).join(', ')}` : ''}`,
              ),
            ),
          timeoutMs,
        )
      })
      if (arrivals.length < subscribers) await Promise.race([all, late])
      clearTimeout(timer)
      arrivals.forEach((t, k) => {
        if (t < ack) beforeAck++
        sorted[w * subscribers + k] = Math.max(0, t - ack)
        fromSend[w * subscribers + k] = t - sent
      })
    }
  } finally {
    for (const s of subs) s.close()
  }
  if (unexpected.length)
    throw new Error(`${target.label}: unexpected events ${[...new Set(unexpected)].join(', ')}`)
  sorted.sort()
  fromSend.sort()
  return { subscribers, writes, sorted, fromSend, beforeAck, received }
}

/**
 * Bytes an idle subscriber holds in this process: the JS heap and typed arrays after full
 * collections with `n` subscribers open and waiting (each with a read pending, as a `for await`
 * between two events is), less before, ÷ `n`.
 */
export async function idleBytesInProcess(subscribe: Subscribe, n: number): Promise<number> {
  const before = usedBytes()
  const subs = Array.from({ length: n }, () => subscribe(() => {}))
  await Promise.all(subs.map((s) => s.ready))
  await turn()
  const after = usedBytes()
  for (const s of subs) s.close()
  return (after - before) / n
}

/** An async iterable of events, followed until it ends or is closed: the loop of a `for await`. */
export function follow(
  source: AsyncIterable<FeedEvent> & { close(): void },
  onEvent: (e: FeedEvent) => void,
): Subscriber {
  void (async () => {
    for await (const e of source) onEvent(e)
  })()
  return { ready: Promise.resolve(), close: () => source.close() }
}

// ---------------------------------------------------------------- the floor

/**
 * The hand-written floor: one publish loop over a Set of subscribers, each an async iterator over a
 * queue of its own (a waiting reader's promise resolved by the publish), every subscriber given the
 * same event object (nothing decided or shaped per subscriber, as `ds.changes` does).
 */
export class PlainFeed {
  readonly #subs = new Set<PlainSubscription>()

  publish(e: FeedEvent): void {
    for (const s of this.#subs) s.push(e)
  }

  open(): PlainSubscription {
    const s = new PlainSubscription(() => this.#subs.delete(s))
    this.#subs.add(s)
    return s
  }
}

class PlainSubscription implements AsyncIterableIterator<FeedEvent> {
  readonly #queue: FeedEvent[] = []
  #waiter: ((r: IteratorResult<FeedEvent>) => void) | undefined
  #closed = false
  readonly #leave: () => void

  constructor(leave: () => void) {
    this.#leave = leave
  }

  push(e: FeedEvent): void {
    const w = this.#waiter
    if (w) {
      this.#waiter = undefined
      w({ done: false, value: e })
    } else this.#queue.push(e)
  }

  next(): Promise<IteratorResult<FeedEvent>> {
    if (this.#queue.length) return Promise.resolve({ done: false, value: this.#queue.shift()! })
    if (this.#closed) return Promise.resolve({ done: true, value: undefined })
    return new Promise((resolve) => (this.#waiter = resolve))
  }

  close(): void {
    this.#closed = true
    this.#leave()
    this.#waiter?.({ done: true, value: undefined })
    this.#waiter = undefined
  }

  [Symbol.asyncIterator](): this {
    return this
  }
}
