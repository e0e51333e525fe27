/**
 * @module For tests: a datastore to follow over REST (its feed's timer fired by hand), and a
 * reader of server-sent events from a web stream (a fetch Response's body).
 */
import { createDatastore, ManualClock, type Datastore } from '@entistore/core'
import { manualSchedule } from '../schedule.fixture.js'

export function feedDatastore(): {
  ds: Datastore
  clock: ManualClock
  timer: ReturnType<typeof manualSchedule>
} {
  const clock = new ManualClock(Date.UTC(2026, 0, 1))
  const timer = manualSchedule()
  const ds = createDatastore(
    {
      __NAME: 'feed',
      dataClasses: [
        {
          name: 'Employee',
          attributes: [
            { name: 'ID', type: 'long', autosequence: true },
            { name: 'lastName', type: 'string' },
            { name: 'salary', type: 'number' },
            { name: 'secret', type: 'string', exposed: false },
          ],
        },
        {
          name: 'Company',
          attributes: [
            { name: 'ID', type: 'long', autosequence: true },
            { name: 'name', type: 'string' },
          ],
        },
      ],
    },
    {
      clock,
      changeHistory: { schedule: timer.schedule },
      data: {
        Employee: [
          { ID: 1, lastName: 'Lovelace', salary: 5000 },
          { ID: 2, lastName: 'Turing', salary: 6000 },
        ],
        Company: [{ ID: 1, name: 'Acme' }],
      },
    },
  )
  return { ds, clock, timer }
}

export interface SseEvent {
  readonly id?: string
  readonly event?: string
  readonly data?: string
  readonly retry?: string
}

/** Reads events from a stream of server-sent events, one block (ended by a blank line) at a time. */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>
  readonly #decoder = new TextDecoder()
  #text = ''

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader()
  }

  /** The next block, or undefined when the stream ended. */
  async next(): Promise<SseEvent | undefined> {
    for (;;) {
      const end = this.#text.indexOf('\n\n')
      if (end >= 0) {
        const block = this.#text.slice(0, end)
        this.#text = this.#text.slice(end + 2)
        const out: Record<string, string> = {}
        for (const line of block.split('\n')) {
          const at = line.indexOf(':')
          if (at <= 0) continue
          out[line.slice(0, at)] = line.slice(at + 1).trimStart()
        }
        return out
      }
      const { done, value } = await this.#reader.read()
      if (done) return undefined
      this.#text += this.#decoder.decode(value, { stream: true })
    }
  }

  /** The next `n` events (blocks with an `event:`), `data` parsed. */
  async take(n: number): Promise<{ id?: string; event?: string; data: any }[]> {
    const out: { id?: string; event?: string; data: any }[] = []
    while (out.length < n) {
      const e = await this.next()
      if (e === undefined) throw new Error(`the stream ended after ${out.length} events`)
      if (e.event === undefined) continue
      out.push({
        id: e.id,
        event: e.event,
        data: e.data === undefined ? undefined : JSON.parse(e.data),
      })
    }
    return out
  }

  cancel(): Promise<void> {
    return this.#reader.cancel()
  }
}

/** Turns of the event loop until `done()` (no time bound: a bounded number of turns). */
export async function turnsUntil(done: () => boolean, what: string, turns = 10_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (done()) return
    await new Promise((resolve) => setImmediate(resolve))
  }
  throw new Error(`never: ${what}`)
}
