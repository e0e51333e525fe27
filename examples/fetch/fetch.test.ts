import { it } from 'vitest'
import { checkEmbedded } from '../embedded.fixture.ts'

it('serves worker.ts on Node, as its README says', async () => {
  await checkEmbedded('examples/fetch/server.ts')
})
