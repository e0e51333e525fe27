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
 */
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ForwardedReply, ForwardedWrite } from './forwarded.js'

/** The writer's answer to a write it will not run: it is not the writer (any more). */
export const NOT_WRITER = 409

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
      let write: ForwardedWrite
      try {
        write = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ForwardedWrite
      } catch {
        return send(400, { error: 'not JSON' })
      }
      options.answer(write).then(
        (reply) => send(200, reply),
        (error: unknown) =>
          error instanceof NotWriter
            ? send(NOT_WRITER, { error: error.message })
            : send(500, { error: (error as Error).message }),
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

/** Sends forwarded writes, keeping a connection pool per writer address. */
export class WriteSender {
  readonly #agents = new Map<string, http.Agent>()
  readonly #timeoutMs: number

  constructor(options: { readonly timeoutMs?: number } = {}) {
    this.#timeoutMs = options.timeoutMs ?? 10_000
  }

  /** Sends `write` to the writer at `address`; rejects with ForwardFailed. */
  send(address: string, token: string, write: ForwardedWrite): Promise<ForwardedReply> {
    const { path, host, port } = parseAddress(address)
    let agent = this.#agents.get(address)
    if (!agent) this.#agents.set(address, (agent = new http.Agent({ keepAlive: true })))
    const body = JSON.stringify(write)
    return new Promise<ForwardedReply>((resolve, reject) => {
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
          res.on('error', () => reject(lost('its answer was cut')))
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8')
            if (res.statusCode === 200) {
              try {
                return resolve(JSON.parse(text) as ForwardedReply)
              } catch {
                return reject(lost('its answer was not JSON'))
              }
            }
            // Refused before it ran: not the writer, a bad token, too large. A 500 is in doubt.
            const outcome = res.statusCode === 500 ? 'in-doubt' : 'refused'
            reject(new ForwardFailed(outcome, `the writer answered ${res.statusCode}: ${text}`))
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
        reject(
          sent
            ? lost(e.message)
            : new ForwardFailed('unsent', `the writer at ${address} is unreachable: ${e.message}`),
        ),
      )
      req.end(body)
    })
  }

  close(): void {
    for (const agent of this.#agents.values()) agent.destroy()
    this.#agents.clear()
  }
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
