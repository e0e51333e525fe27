/**
 * An HTTP proxy that records what passes through it: the docs' curl test puts it in front of the
 * server a page talks to (in-process or a child process alike), so that it can see every request a
 * pasted command really sent and the reply it got, without touching the server or the command.
 */
import { createServer, request, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Exchange {
  readonly method: string
  /** The request target as the client sent it (`/rest/Employee?$top=1`). */
  readonly url: string
  readonly status: number
  readonly body: string
}

export interface RecordingProxy {
  /** `http://127.0.0.1:PORT` */
  readonly url: string
  /** The exchanges since the last call, oldest first; the record is emptied. */
  take(): Exchange[]
  close(): Promise<void>
}

/** Starts a proxy on a free port that forwards everything to `target` (`http://host:port`). */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target)
  let seen: Exchange[] = []
  const server = createServer((req, res) => {
    const headers: IncomingHttpHeaders = { ...req.headers }
    // The proxy has already answered 100-continue to the client; upstream gets the body at once.
    delete headers.expect
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
      },
      (reply) => {
        const chunks: Buffer[] = []
        reply.on('data', (chunk: Buffer) => chunks.push(chunk))
        reply.on('end', () => {
          const body = Buffer.concat(chunks)
          seen.push({
            method: req.method ?? '',
            url: req.url ?? '',
            status: reply.statusCode ?? 0,
            body: body.toString('utf8'),
          })
          const out = { ...reply.headers }
          delete out['transfer-encoding']
          out['content-length'] = String(body.length)
          res.writeHead(reply.statusCode ?? 502, out).end(body)
        })
      },
    )
    forward.on('error', (e) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', status: 502, body: String(e) })
      res.writeHead(502).end(String(e))
    })
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    take: () => {
      const taken = seen
      seen = []
      return taken
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()))
        server.closeAllConnections()
      }),
  }
}
