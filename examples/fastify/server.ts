/**
 * Entistore as a Fastify 5 plugin, next to the application's own routes:
 *
 *   npx tsx --conditions=source examples/fastify/server.ts     # http://127.0.0.1:8080/rest
 */
import { fileURLToPath } from 'node:url'
import Fastify, { type FastifyInstance } from 'fastify'
import { createRestHandler } from 'entistore'
import { fastifyRest } from '@entistore/rest/fastify'
import { loadCompany } from '../company/datastore.ts'

/** Starts the application on `port` (0: a free one); `url` is `http://127.0.0.1:<port>`. */
export async function start(port = 8080): Promise<{ url: string; app: FastifyInstance }> {
  const rest = createRestHandler(await loadCompany()) // basePath: '/rest'

  const app = Fastify()
  app.get('/hello', async () => ({ hello: 'from Fastify' }))
  await app.register(fastifyRest, { rest, prefix: '/rest' })

  await app.listen({ port, host: '127.0.0.1' })
  const { port: bound } = app.server.address() as { port: number }
  return { url: `http://127.0.0.1:${bound}`, app }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await start(Number(process.env.PORT ?? 8080))
  console.log(`Entistore on Fastify at ${url}/rest, the app's own route at ${url}/hello`)
}
