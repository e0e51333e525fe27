/**
 * worker.ts in the runtimes it is written for, started as the README says: Bun on the TypeScript
 * sources, Deno on the built packages (`npm test` builds them first). Their binaries come from npm
 * (optional dependencies of the repository, for Linux x64: the platform CI runs on).
 */
import { describe, expect, it } from 'vitest'
import { checkEmbedded } from '../embedded.fixture.ts'
import { RUNTIMES } from '../run-example.fixture.ts'

const WORKER = 'examples/fetch/worker.ts'

describe.runIf(RUNTIMES.onThisPlatform)('worker.ts on Bun and Deno', () => {
  it('serves reads, writes and errors on Bun (bun run)', async () => {
    expect(RUNTIMES.available, `${RUNTIMES.bun}, ${RUNTIMES.deno}: run npm install`).toBe(true)
    await checkEmbedded(WORKER, undefined, RUNTIMES.onBun)
  })

  it('serves reads, writes and errors on Deno (deno serve)', async () => {
    expect(RUNTIMES.available, `${RUNTIMES.bun}, ${RUNTIMES.deno}: run npm install`).toBe(true)
    await checkEmbedded(WORKER, undefined, RUNTIMES.onDeno)
  })
})
