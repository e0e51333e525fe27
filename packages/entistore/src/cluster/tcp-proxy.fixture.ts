/**
 * @module For the fault tests: a TCP proxy on a free port of 127.0.0.1 that hands each new
 * connection to the next of its targets, round robin. With several targets it is the load
 * balancer in front of separate `entistore serve` processes (each new client connection to the
 * next one); with one it stands between a process and PostgreSQL, and `cut()` is the partition:
 * every connection through it destroyed, each new one destroyed as it arrives, until `heal()`.
 * Bytes are passed as they come, never looked at. Test-only.
 */
import { connect, createServer, type Socket } from 'node:net'

export interface TcpProxy {
  readonly port: number
  /** `url` with its port replaced by the proxy's (a PostgreSQL or HTTP URL on 127.0.0.1). */
  via(url: string): string
  /** Connections handed on so far. */
  readonly connections: number
  /** Destroys every connection through the proxy and refuses new ones, until `heal`. */
  cut(): void
  heal(): void
  close(): Promise<void>
}

/** Starts a proxy forwarding to `targets` (ports of 127.0.0.1), one new connection to each in turn. */
export async function startTcpProxy(targets: readonly number[]): Promise<TcpProxy> {
  const open = new Set<Socket>()
  let next = 0
  let connections = 0
  let cut = false
  const server = createServer((client) => {
    client.on('error', () => undefined)
    if (cut) return void client.destroy()
    connections++
    const upstream = connect(targets[next++ % targets.length]!, '127.0.0.1')
    upstream.on('error', () => undefined)
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      open.add(from)
      from.pipe(to)
      from.on('close', () => {
        open.delete(from)
        to.destroy()
      })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    port,
    via: (url) => {
      const changed = new URL(url)
      changed.port = String(port)
      return changed.toString().replace(/\/$/, '')
    },
    get connections() {
      return connections
    },
    cut() {
      cut = true
      for (const socket of open) socket.destroy()
    },
    heal() {
      cut = false
    },
    close() {
      for (const socket of open) socket.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
