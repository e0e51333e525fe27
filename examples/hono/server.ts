/**
 * The Hono application of app.ts on Node, through @hono/node-server:
 *
 *   npx tsx --conditions=source examples/hono/server.ts     # http://127.0.0.1:8080/rest
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import { loadCompany } from '../company/datastore.ts'
import { createApp } from './app.ts'

/** Starts the application on `port` (0: a free one); `url` is `http://127.0.0.1:<port>`. */
export async function start(port = 8080): Promise<{ url: string; server: Server }> {
  const app = createApp(await loadCompany())
  const server = await new Promise<Server>((resolve) => {
    const started = serve(
      // Node's own Request and Response stay as they are (the default replaces them globally).
      { fetch: app.fetch, port, hostname: '127.0.0.1', overrideGlobalObjects: false },
      () => resolve(started as Server),
    )
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await start(Number(process.env.PORT ?? 8080))
  console.log(`Entistore on Hono at ${url}/rest, the app's own route at ${url}/hello`)
}
