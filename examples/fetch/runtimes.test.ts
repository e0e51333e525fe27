/**
 * worker.ts in the runtimes it is written for, started as the README says: Bun on the TypeScript
 * sources, Deno on the built packages (`npm test` builds them first). Their binaries are installed
 * by `.ci/install-runtimes.sh` (CI runs it); where they are missing, the suite is skipped, named
 * with what to run.
 */
import { describe, expect, it } from 'vitest'
import { checkEmbedded } from '../embedded.fixture.ts'
import { RUNTIMES } from '../run-example.fixture.ts'

const WORKER = 'examples/fetch/worker.ts'

describe.runIf(RUNTIMES.run)('worker.ts on Bun and Deno', () => {
  it('serves reads, writes and errors on Bun (bun run)', async () => {
    expect(RUNTIMES.missing, RUNTIMES.skipReason).toEqual([])
    await checkEmbedded(WORKER, undefined, RUNTIMES.onBun)
  })

  it('serves reads, writes and errors on Deno (deno serve)', async () => {
    expect(RUNTIMES.missing, RUNTIMES.skipReason).toEqual([])
    await checkEmbedded(WORKER, undefined, RUNTIMES.onDeno)
  })
})

describe.skipIf(RUNTIMES.run)(`worker.ts on Bun and Deno: ${RUNTIMES.skipReason}`, () => {
  it.skip('is not run here', () => {})
})
