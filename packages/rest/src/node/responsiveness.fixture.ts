/**
 * @module For the hostile-client tests: is the server still answering *during* an attack? A watch
 * sends a fresh `GET` (a new connection each time, as a client behind a load balancer would) one
 * after the other, every `everyMs`, and records how many failed and, given the server's counted
 * turns (slices/counted-turns.fixture.ts), the most turns of the event loop one of them waited.
 *
 * Counted, not timed: on a busy machine (two CPU hogs beside the suite) a fresh GET beside six
 * relation chains took 1.4 s of wall time while it waited 4 turns, as it does on an idle one. What
 * a turn holds the loop is bounded apart, in the units of work the turn ran (`turnBound`): together
 * they bound the work a GET waits for. Every user counts them, entistore's large writes and
 * PostgreSQL snapshot included (their slices read the turns they are given: persist/take-slice.ts);
 * the watch's milliseconds are for a reader, never a bound (a busy machine failed a bound of 1 s).
 */
import { request } from 'node:http'
import type { CountedTurns } from '../slices/counted-turns.fixture.js'

/**
 * The most turns of the event loop a fresh GET may wait, from its sending to its answer. It needs
 * a handful (its connection accepted, its request read and answered, its answer read; two or three
 * more when it queues behind a request that ran long: listener.ts): 3–12 measured beside six
 * chains, a 118 MB reply, an index build and picture conversions, idle or beside two CPU hogs. The
 * counted turns end at every check phase, even while the loop only waits for I/O, so a GET that
 * waited for an attack's work to end would count its hundreds or thousands of turns.
 */
export const TURNS_WAITED = 32

export interface Responsiveness {
  /** Fresh GETs answered while the watch ran. */
  readonly probes: number
  /** Fresh GETs that failed (refused, reset) or answered a 5xx. */
  readonly failed: number
  /** The slowest fresh GET, in milliseconds: for a reader, never asserted (see the module note). */
  readonly slowestMs: number
  /**
   * The most turns of the event loop that ended while one fresh GET waited, from its sending to
   * its answer (when the watch is given the server's counted turns, else 0).
   */
  readonly turnsWaited: number
}

export interface Watch {
  /** Stops the watch once the GET in flight ends; at least one GET has been answered by then. */
  stop(): Promise<Responsiveness>
}

/** One GET on a new connection: its time in ms, and whether it answered below 500. */
export function freshGet(url: string): Promise<{ ms: number; ok: boolean }> {
  const start = performance.now()
  return new Promise((resolve) => {
    const req = request(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume()
      res.on('end', () =>
        resolve({ ms: performance.now() - start, ok: (res.statusCode ?? 500) < 500 }),
      )
      res.on('error', () => resolve({ ms: performance.now() - start, ok: false }))
    })
    req.on('error', () => resolve({ ms: performance.now() - start, ok: false }))
    req.end()
  })
}

/**
 * Starts probing `url` (for example `${base}/rest/Company(1)`) every `everyMs`, counting the turns
 * each GET waits on `counted`, the turns the server was given.
 */
export function watchResponsiveness(
  url: string,
  { everyMs = 20, counted }: { everyMs?: number; counted?: CountedTurns } = {},
): Watch {
  let probes = 0
  let failed = 0
  let slowestMs = 0
  let turnsWaited = 0
  let stopping = false
  const run = async (): Promise<void> => {
    while (!stopping || probes + failed === 0) {
      const turns = counted?.ended ?? 0
      const { ms, ok } = await freshGet(url)
      if (ok) probes++
      else failed++
      slowestMs = Math.max(slowestMs, ms)
      turnsWaited = Math.max(turnsWaited, (counted?.ended ?? 0) - turns)
      if (!stopping) await new Promise((r) => setTimeout(r, everyMs))
    }
  }
  const running = run()
  return {
    async stop() {
      stopping = true
      await running
      return { probes, failed, slowestMs, turnsWaited }
    },
  }
}
