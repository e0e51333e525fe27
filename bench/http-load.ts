/**
 * @module The HTTP suite's load generator: autocannon (programmatic API) with keep-alive
 * connections, a different key on every request, interleaved rounds against several servers.
 *
 * Keys: each connection gets its own list of request targets from its own seed (`setupClient`),
 * built once per round, which autocannon encodes once and cycles through. A `setupRequest`
 * callback instead re-encodes every request in the client, which on this 2-core machine cut the
 * requests the client can send by ≈40 % (9k vs 15k req/s against the raw server): the client
 * shares the cores with the server it loads, so the lighter it is, the more the ratios say about
 * the server. Lists differ between connections (no 16 requests for the same key in a row) and
 * rounds; the targets compared get the same lists. Writes (the writes suite) give a whole request
 * per entry (method, headers, JSON body), encoded once as well; deletes, which must not repeat,
 * send each list once (`once`) instead of cycling it. A `sequence` (the cluster-http suite's
 * create, then update with the stamp it answered) is the exception that needs `setupRequest`: the
 * update's body is known only from the create's reply.
 *
 * Latency is taken from autocannon's per-response event (milliseconds as a float, from writing the
 * request to the end of the reply), not from its result histogram: that histogram records whole
 * milliseconds, and the replies measured here take a fraction of one. Throughput counts 2xx replies
 * only; a server answering errors fast must not look fast.
 */
import autocannon from 'autocannon'
import { prng } from './data.ts'

export interface LoadOptions {
  readonly connections: number
  /** Seconds per timed round. */
  readonly seconds: number
  /** Timed rounds per target; rounds of the targets alternate (a, b, a, b…). */
  readonly rounds: number
  /**
   * Untimed seconds against each target first (JIT, connection set-up, caches); 0: none (a
   * smoke run: autocannon's shortest run lasts a second, whatever it is asked).
   */
  readonly warmupSeconds: number
  /** Request targets per connection and round, cycled. */
  readonly pathsPerConnection: number
  /**
   * Each connection sends its list once, then stops (autocannon's `amount`), instead of cycling it
   * for `seconds`: for requests that must not repeat (a delete). A timed round is then
   * `pathsPerConnection` requests per connection, a warm-up its share for `warmupSeconds`, and the
   * round lasts until the last reply (timed here: autocannon rounds its own duration up to a
   * whole second when it stops on a count).
   */
  readonly once?: boolean
}

export type LoadTarget = {
  readonly label: string
  /** `http://host:port` */
  readonly origin: string
  /**
   * Headers of every request of connection `c`, the `c`-th (cycled): a session cookie of its own,
   * as a client that keeps its cookie sends it. @default none
   */
  readonly connectionHeaders?: readonly Readonly<Record<string, string>>[]
  /**
   * Milliseconds of CPU the server has used so far (all its processes: processes.ts's
   * `treeCpuMs`), read before and after each timed round: `LoadResult.cpuMs`. @default not read
   */
  readonly cpuMs?: () => number
} & (
  | {
      /** A GET of a request target (a key) drawn from `random`. */
      readonly path: (random: () => number) => string
    }
  | {
      /** A whole request (method, path, headers, body) drawn from `random`: writes. */
      readonly request: (random: () => number) => autocannon.Request
    }
  | {
      /**
       * Requests that depend on the replies before them, sent in turn and cycled on each
       * connection (autocannon's `onResponse` and `setupRequest`, with a context per connection
       * that starts empty on each cycle): a create, then an update with the stamp it answered.
       * The dependent ones are encoded for each request, in the client.
       */
      readonly sequence: (random: () => number) => autocannon.Request[]
    }
)

export interface LoadResult {
  readonly label: string
  /** 2xx replies per second over the timed rounds. */
  readonly rps: number
  readonly p25: number
  readonly p50: number
  readonly p99: number
  readonly ok: number
  /** Replies that were not 2xx, and connection errors or timeouts. */
  readonly non2xx: number
  readonly errors: number
  readonly seconds: number
  /** Milliseconds of CPU the server used over the timed rounds, when the target reads it. */
  readonly cpuMs?: number
}

interface Round {
  ok: number
  non2xx: number
  errors: number
  seconds: number
  latencies: number[]
}

/** One autocannon run of `seconds` against `target`; `seed` picks the keys. */
async function round(target: LoadTarget, o: LoadOptions, seconds: number, seed: number) {
  // In `once` mode a round is a count of requests: `seconds` says which share of a timed round.
  const perConnection = o.once
    ? Math.max(1, Math.round((o.pathsPerConnection * seconds) / o.seconds))
    : o.pathsPerConnection
  const lists = Array.from({ length: o.connections }, (_, c): autocannon.Request[] => {
    const random = prng(seed * 1000 + c)
    const list =
      'sequence' in target
        ? target.sequence(random)
        : Array.from({ length: perConnection }, () =>
            'request' in target
              ? target.request(random)
              : { method: 'GET' as const, path: target.path(random) },
          )
    const headers = target.connectionHeaders?.[c % target.connectionHeaders.length]
    return headers ? list.map((r) => ({ ...r, headers: { ...r.headers, ...headers } })) : list
  })
  let client = 0
  const latencies: number[] = []
  let ok = 0
  let non2xx = 0
  const t0 = performance.now()
  let last = t0
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.origin,
        connections: o.connections,
        // autocannon sees its end only at a sample's tick (1 s by default): a counted round,
        // timed by its last reply, ticks often so as not to wait out the second.
        ...(o.once
          ? { amount: perConnection * o.connections, sampleInt: 50 }
          : { duration: seconds }),
        timeout: 10,
        setupClient: (c) => c.setRequests(lists[client++ % lists.length]!),
      },
      (err: unknown, res) => (err ? reject(err as Error) : resolve(res)),
    )
    instance.on('response', (_client, status: number, _bytes, ms: number) => {
      last = performance.now()
      if (status >= 200 && status < 300) {
        ok++
        latencies.push(ms)
      } else non2xx++
    })
  })
  const took = o.once ? (last - t0) / 1000 : result.duration
  const r: Round = { ok, non2xx, errors: result.errors, seconds: took, latencies }
  return r
}

/** The p-quantile (0…1) of sorted values, nearest rank. */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
}

/**
 * Warms up every target, then runs `rounds` timed rounds of each, alternating targets, so that a
 * drift of the (shared) machine hits all of them alike. Results in the order of `targets`.
 */
export async function compareLoad(
  targets: readonly LoadTarget[],
  o: LoadOptions,
): Promise<LoadResult[]> {
  if (o.warmupSeconds > 0) for (const t of targets) await round(t, o, o.warmupSeconds, 0)
  const acc = targets.map((): Round => ({ ok: 0, non2xx: 0, errors: 0, seconds: 0, latencies: [] }))
  const cpu = targets.map(() => 0)
  for (let r = 0; r < o.rounds; r++)
    for (let i = 0; i < targets.length; i++) {
      const cpu0 = targets[i]!.cpuMs?.()
      const x = await round(targets[i]!, o, o.seconds, r + 1)
      if (cpu0 !== undefined) cpu[i]! += targets[i]!.cpuMs!() - cpu0
      const a = acc[i]!
      a.ok += x.ok
      a.non2xx += x.non2xx
      a.errors += x.errors
      a.seconds += x.seconds
      for (const l of x.latencies) a.latencies.push(l)
    }
  return targets.map((t, i) => {
    const a = acc[i]!
    const sorted = Float64Array.from(a.latencies).sort()
    return {
      label: t.label,
      rps: a.ok / a.seconds,
      p25: quantile(sorted, 0.25),
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      ok: a.ok,
      non2xx: a.non2xx,
      errors: a.errors,
      seconds: a.seconds,
      ...(t.cpuMs === undefined ? {} : { cpuMs: cpu[i]! }),
    }
  })
}
