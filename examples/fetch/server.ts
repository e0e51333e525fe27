/**
 * worker.ts, the `export default { fetch }` module, served on Node through @hono/node-server's
 * Request/Response bridge (no Hono router involved):
 *
 *   npx tsx --conditions=source examples/fetch/server.ts     # http://127.0.0.1:8080/rest
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import worker from './worker.ts'

/** Starts serving worker.ts on `port` (0: a free one); `url` is `http://127.0.0.1:<port>`. */
export async function start(port = 8080): Promise<{ url: string; server: Server }> {
  const server = await new Promise<Server>((resolve) => {
    const started = serve(
      { fetch: worker.fetch, port, hostname: '127.0.0.1', overrideGlobalObjects: false },
      () => resolve(started as Server),
    )
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await start(Number(process.env.PORT ?? 8080))
  console.log(`worker.ts on Node at ${url}/rest`)
}
