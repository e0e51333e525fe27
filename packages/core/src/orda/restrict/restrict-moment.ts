/**
 * @module The moment a `restrict` answer that read state changing untold (the clock, a file: a
 * VOLATILE_READ, sessions/session-reads.ts) serves, in restrict.ts's last answer: the code that
 * asked, and nothing after it. That is the asker (the Actor of the request or of the promotion;
 * none outside a request), the synchronous run of code (a microtask ends it: its next await or
 * callback), and the millisecond of the datastore's clock. Within it, a request that asks at every
 * row it reads (a relation followed for each of 1,000 entities) runs the restrict once; the next
 * await, request or millisecond asks again, as 4D asks at every read.
 */
import type { Clock } from '../../clock/clock.js'
import { VOLATILE_READ, type Reads } from '../../sessions/session-reads.js'

/** Whom and when a volatile answer serves. */
export interface Moment {
  readonly asker: object | undefined
  readonly turn: number
  readonly at: number
}

// The synchronous run of code now: a number moved by a microtask queued at its first ask.
let turn = 0
let turnEnds = false

function currentTurn(): number {
  if (!turnEnds) {
    turnEnds = true
    queueMicrotask(() => {
      turnEnds = false
      turn++
    })
  }
  return turn
}

// What any other answer holds (it is not bound to a moment): one object, no clock read.
const ANY: Moment = { asker: undefined, turn: -1, at: -1 }

/** The moment an answer of `reads` serves, asked by `asker` now. */
export function momentOf(reads: Reads, asker: object | undefined, clock: Clock): Moment {
  return (reads & VOLATILE_READ) === 0 ? ANY : { asker, turn: currentTurn(), at: clock.now() }
}

/** Whether `asker` asking now is within `moment`. */
export function sameMoment(moment: Moment, asker: object | undefined, clock: Clock): boolean {
  return moment.asker === asker && moment.turn === currentTurn() && moment.at === clock.now()
}
