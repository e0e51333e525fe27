/**
 * @module Outgoing HTTP requests for 4D code (`HTTP Request`, `HTTP Get`), to the hosts the server
 * allows and no other: `entistore serve --allow-http api.example.com,*.example.org` (none by
 * default, so that code a client can reach cannot make the server a relay into its network).
 * Each redirection is checked against the same list before it is followed. The request runs in a
 * worker thread that the call waits for, as 4D's commands wait (sync-worker.ts); its answer is
 * read up to MAX_BYTES, past which the request fails rather than fill the memory.
 */
import type { HttpAsk, HttpHost, HttpReply } from '@entistore/4d'
import { SyncWorker } from './sync-worker.js'

/** The most bytes of an answer kept: a larger one fails the request. */
const MAX_BYTES = 16 * 1024 * 1024

/**
 * Whether `host` (lower case; an IPv6 address in brackets) and `port` are ones `allowed` names:
 * `host` (any port), `host:port`, `*.domain` (its subdomains, not itself). The reason they are
 * not, otherwise, naming the serve option that lists them (`--allow-http`, `--allow-smtp`).
 * Self-contained, as hostRefusal is: the HTTP worker runs its text.
 */
export function endpointRefusal(
  host: string,
  port: string,
  allowed: readonly string[],
  option: string,
): string | undefined {
  const fits = allowed.some((entry) => {
    const e = entry.trim().toLowerCase()
    const at = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(e)
    if (!at) return false
    const [, name, p] = at
    if (p !== undefined && p !== port) return false
    return name!.startsWith('*.') ? host.endsWith(name!.slice(1)) : host === name
  })
  if (fits) return undefined
  return allowed.length === 0
    ? `the server allows no host (entistore serve ${option} <host>)`
    : `the server allows ${allowed.join(', ')} (entistore serve ${option})`
}

/**
 * Whether `url`'s host is one `allowed` names (endpointRefusal); http and https only. The reason
 * it is not, otherwise.
 */
export function hostRefusal(url: string, allowed: readonly string[]): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'it is not a URL'
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `${parsed.protocol} is not http or https`
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80')
  return endpointRefusal(parsed.hostname.toLowerCase(), port, allowed, '--allow-http')
}

// The worker's handler (sync-worker.ts): one request, its redirections followed when allowed.
const SCRIPT = `
const { allowed, maxBytes, refusal: refusalSource } = require('node:worker_threads').workerData.data
const refusal = new Function(refusalSource)()
async function read(res) {
  const chunks = []
  let size = 0
  for await (const chunk of res.body ?? []) {
    size += chunk.byteLength
    if (size > maxBytes) throw new Error('the answer is larger than ' + maxBytes + ' bytes')
    chunks.push(chunk)
  }
  const out = new Uint8Array(size)
  let at = 0
  for (const c of chunks) { out.set(c, at); at += c.byteLength }
  return out
}
async function handle({ method, url, headers, body, timeoutMs, redirects }) {
  let target = url
  let verb = method
  let payload = body
  const signal = AbortSignal.timeout(timeoutMs)
  for (let hop = 0; ; hop++) {
    const refused = refusal(target, allowed)
    if (refused !== undefined) return { refused: target + ': ' + refused }
    let res
    try {
      res = await fetch(target, { method: verb, headers, body: payload, redirect: 'manual', signal })
    } catch (e) {
      return { failed: String((e.cause && e.cause.message) || e.message || e) }
    }
    const location = res.headers.get('location')
    if (res.status >= 300 && res.status < 400 && location !== null && hop < redirects) {
      target = new URL(location, target).href
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && verb === 'POST')) {
        verb = 'GET'
        payload = undefined
      }
      await res.body?.cancel()
      continue
    }
    try {
      return { status: res.status, statusText: res.statusText, headers: [...res.headers], body: await read(res) }
    } catch (e) {
      return { failed: String(e.message || e) }
    }
  }
}
`

class FetchHost implements HttpHost {
  readonly #worker: SyncWorker<HttpAsk, HttpReply | { refused: string } | { failed: string }>

  constructor(readonly allowed: readonly string[]) {
    this.#worker = new SyncWorker(
      SCRIPT,
      {
        allowed: [...allowed],
        maxBytes: MAX_BYTES,
        // The two functions' texts, hostRefusal calling endpointRefusal.
        refusal: `${endpointRefusal.toString()}\nreturn ${hostRefusal.toString()}`,
      },
      // The call's own timeout ends the request; this one only guards against a worker gone.
      24 * 60 * 60 * 1000,
    )
  }

  request(ask: HttpAsk): HttpReply | { refused: string } | { failed: string } {
    // Refused here first: a host not allowed costs no worker.
    const refused = hostRefusal(ask.url, this.allowed)
    if (refused !== undefined) return { refused }
    return this.#worker.call(
      { ...ask, headers: ask.headers.map(([n, v]) => [n, v] as const) },
      ask.timeoutMs + 5000,
    )
  }
}

/** The HTTP host for 4D code that may reach `allowed` (host, host:port, *.domain), no other. */
export const httpHost = (allowed: readonly string[] = []): HttpHost => new FetchHost(allowed)
