/**
 * @module For the hostile-client tests: is the server still answering *during* an attack? A watch
 * sends a fresh `GET` (a new connection each time, as a client behind a load balancer would) one
 * after the other, every `everyMs`, and records how long each took; for a server in this process it
 * also records the longest the event loop was held (perf_hooks' event-loop delay histogram).
 *
 * The bound a test asserts (`FRESH_GET_BOUND_MS`) is far above a fresh GET's usual time (a few
 * milliseconds) and far below what the attacks did before they were fixed (seconds), so that a busy
 * machine (two CPU hogs beside the suite) does not make it fail and a regression does.
 */
import { request } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'

/**
 * What a test asserts of the slowest fresh GET during an attack. The attacks of issue 28 held the
 * loop for 1.6 s to 22 s; an idle server answers in 1–5 ms, a busy 2-core machine in tens.
 */
export const FRESH_GET_BOUND_MS = 1000

export interface Responsiveness {
  /** Fresh GETs answered while the watch ran. */
  readonly probes: number
  /** Fresh GETs that failed (refused, reset) or answered a 5xx. */
  readonly failed: number
  /** The slowest fresh GET, in milliseconds. */
  readonly slowestMs: number
  /** The longest the event loop of this process was held, in milliseconds (in-process servers). */
  readonly loopHeldMs: number
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

/** Starts probing `url` (for example `${base}/rest/Company(1)`) every `everyMs`. */
export function watchResponsiveness(url: string, { everyMs = 20 } = {}): Watch {
  const loop = monitorEventLoopDelay({ resolution: 5 })
  loop.enable()
  let probes = 0
  let failed = 0
  let slowestMs = 0
  let stopping = false
  const run = async (): Promise<void> => {
    while (!stopping || probes + failed === 0) {
      const { ms, ok } = await freshGet(url)
      if (ok) probes++
      else failed++
      slowestMs = Math.max(slowestMs, ms)
      if (!stopping) await new Promise((r) => setTimeout(r, everyMs))
    }
  }
  const running = run()
  return {
    async stop() {
      stopping = true
      await running
      loop.disable()
      return { probes, failed, slowestMs, loopHeldMs: loop.max / 1e6 }
    },
  }
}
