/**
 * The scale and contention suites' prober (suites/scale.bench.ts, `during`): GETs by key on a new
 * connection each (or all on one kept alive: `keep-alive`), one at a time, `everyMs` apart, until
 * the parent says `stop`; then it sends back their latencies. With a `path` (`/ping`: a host
 * server's own route), it GETs that path instead of a key.
 * A process of its own, so that what the bench process does meanwhile (8 writers' replies, a
 * clone's output, its own garbage collection) does not delay the probe's clock: a user's client
 * does not share its event loop with the other clients of the server.
 *
 * usage (forked, with IPC): node prober.mjs <origin> <dataclass> <rows> <everyMs> <seed> [fresh|keep-alive] [path]
 * env PROBE_HEADERS: a JSON object of headers sent with every GET (a session's cookie: a logged-in
 * user's reads).
 * messages: out { ready } once started; in 'stop'; out { latencies, failed } before it exits.
 */
import { Agent, request } from 'node:http'

const [origin, dataclass, rowsArg, everyArg, seedArg, connection = 'fresh', path] =
  process.argv.slice(2)
const rows = Number(rowsArg)
const everyMs = Number(everyArg)
// One socket kept alive for every GET (a client of its own, apart from any other's connections).
const keepAlive = connection === 'keep-alive' ? new Agent({ keepAlive: true, maxSockets: 1 }) : null
const headers = process.env.PROBE_HEADERS ? JSON.parse(process.env.PROBE_HEADERS) : {}

// mulberry32: keys spread over the whole table, the same each run.
let seed = Number(seedArg) >>> 0
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/**
 * One GET on a fresh connection, or on the one kept alive: its time to the last byte, and whether
 * it was answered (< 500).
 */
function get(url) {
  const start = performance.now()
  const how = keepAlive
    ? { agent: keepAlive, headers }
    : { agent: false, headers: { ...headers, connection: 'close' } }
  return new Promise((resolve) => {
    const req = request(url, how, (res) => {
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
  const r = await get(path ? origin + path : `${origin}/rest/${dataclass}(${key})`)
  if (r.ok) latencies.push(r.ms)
  else failed++
  if (!stopping) await new Promise((resolve) => setTimeout(resolve, everyMs))
}
process.send({ latencies, failed }, () => process.exit(0))
