/**
 * @module The link that carries forwarded writes to the writer: HTTP/1.1 on a socket, a Unix
 * socket between the workers of one `serve` (`unix:/run/…/writer.sock`) or TCP between machines
 * (`http://10.0.0.5:7071`). One transport for both: the workers' own IPC channel (node:cluster)
 * goes through the primary, which would relay every write twice and put the primary's event loop
 * in each write's path; a Unix socket goes straight from worker to worker.
 *
 * The writer's side checks a token (written beside its address in PostgreSQL, a new one each
 * term: only a process that can read the writer's row may forward) and a size bound, and hands
 * each write to `answer`. The sender's side keeps connections alive and tells apart what it
 * knows from what it does not: a write that could not be sent (no connection) or that the
 * writer refused before running it (not the writer any more) was never applied and may go to the
 * next writer; one whose answer was lost (a timeout, a cut connection) is *in doubt*, and the
 * caller must ask the log whether it landed before it says anything to its client.
 *
 * **Batches.** The writes a process forwards within one turn of its event loop travel in one
 * request (a JSON array), and their replies in one answer (an array of outcomes, in the same
 * order): the writer runs them in one group anyway, and on two cores each message that wakes a
 * sleeping process costs more CPU than the write it carries (docs/benchmarks.md, "Many
 * processes"). A failure of the request is each write's failure; a write refused or failed
 * inside an answered batch is that write's alone.
 */
import { once } from 'node:events'
import type * as Http from 'node:http'
import { http } from '../../node-http.js'
import type { AddressInfo } from 'node:net'
import type { ForwardedReply, ForwardedWrite } from './forwarded.js'

/** The writer's answer to a write it will not run: it is not the writer (any more). */
export const NOT_WRITER = 409

/** A batch's writes at most, and its JSON's bytes at most (a larger write travels alone). */
const BATCH_WRITES = 256
const BATCH_BYTES = 1024 * 1024

/** One write's outcome in a batch's answer: its reply, or why it was not run (or failed). */
export type ForwardOutcome =
  { readonly reply: ForwardedReply } | { readonly refused: string } | { readonly failed: string }

/** Why a forward failed, and what it means for the write. */
export class ForwardFailed extends Error {
  constructor(
    /** `unsent`, `refused`: never applied; `in-doubt`: it may have been, ask the log. */
    readonly outcome: 'unsent' | 'refused' | 'in-doubt',
    message: string,
  ) {
    super(message)
    this.name = 'ForwardFailed'
  }
}

export interface WriteListenerOptions {
  /** `unix:/path.sock`, or `http://host:port` (port 0: any free one). */
  readonly address: string
  /** What a forwarded write must carry; asked at each write (a new one each term). Empty: none. */
  readonly token: string | (() => string)
  /** The largest forwarded write accepted, in bytes of JSON. @default 64 MiB */
  readonly maxBytes?: number
  /** Runs one write; rejects with a NotWriter to send it back unrun. */
  readonly answer: (write: ForwardedWrite) => Promise<ForwardedReply>
}

/** Thrown by `answer` for a write that this process will not run: it is not the writer. */
export class NotWriter extends Error {
  override name = 'NotWriter'
}

export interface WriteListener {
  /** Where it listens, as others reach it (the port filled in). */
  readonly address: string
  close(): Promise<void>
}

/** Starts taking forwarded writes at `options.address`. */
export async function listenForWrites(options: WriteListenerOptions): Promise<WriteListener> {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body)
      res.writeHead(status, { 'content-type': 'application/json' }).end(text)
    }
    if (req.method !== 'POST' || req.url !== '/forward') return send(404, { error: 'not found' })
    const token = typeof options.token === 'function' ? options.token() : options.token
    if (token === '' || req.headers.authorization !== `Bearer ${token}`)
      return send(403, { error: 'bad token' })
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) {
        send(413, { error: `a forwarded write is limited to ${maxBytes} bytes` })
        req.destroy()
      } else chunks.push(chunk)
    })
    req.on('end', () => {
      let sent: ForwardedWrite | ForwardedWrite[]
      try {
        sent = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof sent
      } catch {
        return send(400, { error: 'not JSON' })
      }
      // One write alone (as a process of an earlier version sends it): its reply, or a status.
      if (!Array.isArray(sent))
        return void options.answer(sent).then(
          (reply) => send(200, reply),
          (error: unknown) =>
            error instanceof NotWriter
              ? send(NOT_WRITER, { error: error.message })
              : send(500, { error: (error as Error).message }),
        )
      void Promise.all(sent.map((write) => outcome(options.answer(write)))).then((outcomes) =>
        send(200, outcomes),
      )
    })
  })
  const { path, host, port } = parseAddress(options.address)
  // Exclusive: in a node:cluster worker, a shared handle would hand forwarded writes to any
  // worker, not to this one.
  server.listen(path === undefined ? { host, port, exclusive: true } : { path, exclusive: true })
  await once(server, 'listening')
  const bound =
    path === undefined ? `http://${host}:${(server.address() as AddressInfo).port}` : `unix:${path}`
  return {
    address: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** What a batch's answer says of one write run by `answer`. */
function outcome(run: Promise<ForwardedReply>): Promise<ForwardOutcome> {
  return run.then(
    (reply) => ({ reply }),
    (error: unknown) =>
      error instanceof NotWriter
        ? { refused: error.message }
        : { failed: (error as Error).message },
  )
}

/** A write waiting for its batch to leave, and who waits for its reply. */
interface Queued {
  readonly json: string
  readonly resolve: (reply: ForwardedReply) => void
  readonly reject: (error: ForwardFailed) => void
}

/**
 * Sends forwarded writes, keeping a connection pool per writer address: the writes sent within
 * one turn of the event loop go together, a batch per writer (see the module's comment).
 */
export class WriteSender {
  readonly #agents = new Map<string, Http.Agent>()
  readonly #timeoutMs: number
  // The writes of this turn, by writer address and token.
  readonly #queued = new Map<string, Queued[]>()

  constructor(options: { readonly timeoutMs?: number } = {}) {
    this.#timeoutMs = options.timeoutMs ?? 10_000
  }

  /** Sends `write` to the writer at `address` (in the next batch); rejects with ForwardFailed. */
  send(address: string, token: string, write: ForwardedWrite): Promise<ForwardedReply> {
    parseAddress(address) // a wrong address throws here, not in the batch
    const key = `${address}\n${token}`
    let queue = this.#queued.get(key)
    if (queue === undefined) {
      this.#queued.set(key, (queue = []))
      setImmediate(() => this.#flush(key, address, token))
    }
    const waiting = queue
    return new Promise<ForwardedReply>((resolve, reject) =>
      waiting.push({ json: JSON.stringify(write), resolve, reject }),
    )
  }

  /** Sends what was queued for `key`, in batches within the bounds. */
  #flush(key: string, address: string, token: string): void {
    const queue = this.#queued.get(key) ?? []
    this.#queued.delete(key)
    let batch: Queued[] = []
    let bytes = 0
    for (const q of queue) {
      if (
        batch.length > 0 &&
        (batch.length === BATCH_WRITES || bytes + q.json.length > BATCH_BYTES)
      ) {
        this.#post(address, token, batch)
        batch = []
        bytes = 0
      }
      batch.push(q)
      bytes += q.json.length + 1
    }
    if (batch.length > 0) this.#post(address, token, batch)
  }

  /** One request carrying `batch`; each write learns its own outcome, or the request's failure. */
  #post(address: string, token: string, batch: readonly Queued[]): void {
    const { path, host, port } = parseAddress(address)
    let agent = this.#agents.get(address)
    if (!agent) this.#agents.set(address, (agent = new http.Agent({ keepAlive: true })))
    const body = `[${batch.map((q) => q.json).join(',')}]`
    const fail = (error: ForwardFailed) => {
      for (const q of batch) q.reject(error)
    }
    let sent = false
    const req = http.request(
      {
        agent,
        method: 'POST',
        path: '/forward',
        ...(path === undefined ? { host, port } : { socketPath: path }),
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
        timeout: this.#timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('error', () => fail(lost('its answer was cut')))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          if (res.statusCode !== 200) {
            // Refused before it ran: a bad token, too large. A 500 is in doubt.
            const outcome = res.statusCode === 500 ? 'in-doubt' : 'refused'
            return fail(
              new ForwardFailed(outcome, `the writer answered ${res.statusCode}: ${text}`),
            )
          }
          let outcomes: ForwardOutcome[]
          try {
            outcomes = JSON.parse(text) as ForwardOutcome[]
          } catch {
            return fail(lost('its answer was not JSON'))
          }
          if (!Array.isArray(outcomes) || outcomes.length !== batch.length)
            return fail(
              lost(
                `its answer held ${String(outcomes.length)} outcomes for ${batch.length} writes`,
              ),
            )
          batch.forEach((q, i) => settle(q, outcomes[i]!))
        })
      },
    )
    req.on('socket', (socket) => {
      // Once the request is on a connected socket, the writer may have received it.
      if (!socket.connecting) sent = true
      else socket.once('connect', () => (sent = true))
    })
    req.on('timeout', () => req.destroy(new Error(`no answer in ${this.#timeoutMs} ms`)))
    req.on('error', (e) =>
      fail(
        sent
          ? lost(e.message)
          : new ForwardFailed('unsent', `the writer at ${address} is unreachable: ${e.message}`),
      ),
    )
    req.end(body)
  }

  close(): void {
    for (const queue of this.#queued.values())
      for (const q of queue) q.reject(new ForwardFailed('unsent', 'the sender was closed'))
    this.#queued.clear()
    for (const agent of this.#agents.values()) agent.destroy()
    this.#agents.clear()
  }
}

/** Tells one write of an answered batch its outcome. */
function settle(q: Queued, outcome: ForwardOutcome): void {
  if ('reply' in outcome) q.resolve(outcome.reply)
  else if ('refused' in outcome)
    q.reject(new ForwardFailed('refused', `the writer answered ${NOT_WRITER}: ${outcome.refused}`))
  else q.reject(new ForwardFailed('in-doubt', `the writer answered 500: ${outcome.failed}`))
}

function lost(why: string): ForwardFailed {
  return new ForwardFailed('in-doubt', `the forwarded write's answer was lost: ${why}`)
}

function parseAddress(address: string): { path?: string; host?: string; port?: number } {
  if (address.startsWith('unix:')) return { path: address.slice('unix:'.length) }
  const url = new URL(address)
  if (url.protocol !== 'http:')
    throw new TypeError(`a writer's address is unix: or http:, got ${address}`)
  return { host: url.hostname, port: Number(url.port) }
}
