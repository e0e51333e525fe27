/**
 * Entistore inside an Express 5 application, next to the application's own routes:
 *
 *   npx tsx --conditions=source examples/express/server.ts     # http://127.0.0.1:8080/rest
 *
 * `express.json()` runs in front of every route, Entistore's included: the adapter takes the body
 * it parsed instead of reading the request again.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import express from 'express'
import { createRestHandler } from 'entistore'
import { expressRest } from '@entistore/rest/express'
import { loadCompany } from '../company/datastore.ts'

/** Starts the application on `port` (0: a free one); `url` is `http://127.0.0.1:<port>`. */
export async function start(port = 8080): Promise<{ url: string; server: Server }> {
  const rest = createRestHandler(await loadCompany()) // basePath: '/rest'

  const app = express()
  app.use(express.json())
  app.get('/hello', (_req, res) => {
    res.json({ hello: 'from Express' })
  })
  app.use('/rest', expressRest(rest))

  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(port, '127.0.0.1', () => resolve(listening))
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await start(Number(process.env.PORT ?? 8080))
  console.log(`Entistore on Express at ${url}/rest, the app's own route at ${url}/hello`)
}
