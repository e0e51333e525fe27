import { it } from 'vitest'
import { checkEmbedded } from '../embedded.fixture.ts'

it('serves Entistore under /rest beside its own routes, as its README says', async () => {
  await checkEmbedded('examples/fastify/server.ts', { hello: 'from Fastify' })
})
