/**
 * The scale suite's prober (suites/scale.bench.ts, `during`): GETs by key on a new connection each,
 * one at a time, `everyMs` apart, until the parent says `stop`; then it sends back their latencies.
 * A process of its own, so that what the bench process does meanwhile (8 writers' replies, a
 * clone's output, its own garbage collection) does not delay the probe's clock: a user's client
 * does not share its event loop with the other clients of the server.
 *
 * usage (forked, with IPC): node prober.mjs <origin> <dataclass> <rows> <everyMs> <seed>
 * messages: out { ready } once started; in 'stop'; out { latencies, failed } before it exits.
 */
import { request } from 'node:http'

const [origin, dataclass, rowsArg, everyArg, seedArg] = process.argv.slice(2)
const rows = Number(rowsArg)
const everyMs = Number(everyArg)

// mulberry32: keys spread over the whole table, the same each run.
let seed = Number(seedArg) >>> 0
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** One GET on a fresh connection: its time to the last byte, and whether it was answered (< 500). */
function freshGet(url) {
  const start = performance.now()
  return new Promise((resolve) => {
    const req = request(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume()
      res.on('end', () => resolve({ ms: performance.now() - start, ok: res.statusCode < 500 }))
      res.on('error', () => resolve({ ms: performance.now() - start, ok: false }))
    })
    req.on('error', () => resolve({ ms: performance.now() - start, ok: false }))
    req.end()
  })
}

let stopping = false
process.on('message', (m) => {
  if (m === 'stop') stopping = true
})
process.send({ ready: true })
const latencies = []
let failed = 0
// At least one GET answered after `stop` (the work's end is measured too).
while (!stopping || latencies.length + failed === 0) {
  const key = 1 + Math.floor(random() * rows)
  const r = await freshGet(`${origin}/rest/${dataclass}(${key})`)
  if (r.ok) latencies.push(r.ms)
  else failed++
  if (!stopping) await new Promise((resolve) => setTimeout(resolve, everyMs))
}
process.send({ latencies, failed }, () => process.exit(0))
