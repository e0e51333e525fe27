/**
 * The fetch adapter in the runtimes it is for: the conformance suite against the handler served by
 * Bun (on the sources, `--conditions=source`) and by Deno (`deno serve`, on the built packages:
 * `npm run build` first), each in a child process, compared byte for byte with the node listener.
 * Their binaries are installed by `.ci/install-runtimes.sh` (CI runs it); where they are missing,
 * the suite is skipped, named with what to run.
 */
import { beforeAll, describe, it } from 'vitest'
import { runExample, RUNTIMES, type RunOptions } from '../../../../examples/run-example.fixture.ts'
import { conformance, type Served, type StartServer } from '../node/conformance.fixture.js'

const WORKER = 'packages/rest/src/fetch/company-worker.fixture.ts'

/**
 * Starts the worker in a child process. The suite's `rest` is not used: the handler served lives in
 * the child, built there by the same `companyRest` the suite builds the reference with, so the two
 * datastores are identical all the same. Bun serves on $PORT (0: a free one).
 */
const inChild =
  (run: RunOptions): StartServer =>
  async () => {
    const child = await runExample(WORKER, run)
    // Both print the address they listen on (Bun `localhost`, Deno `0.0.0.0`), IPv4 in both cases.
    const { port } = new URL(child.url)
    const served: Served = { url: `http://127.0.0.1:${port}`, close: () => child.stop() }
    return served
  }

describe.runIf(RUNTIMES.run)('the fetch adapter on Bun and Deno', () => {
  // In a hook, not the body: vitest runs a skipped describe's body too, to collect its tests, and a
  // throw there failed every run on a machine without the runtimes.
  beforeAll(() => {
    if (RUNTIMES.missing.length > 0) throw new Error(RUNTIMES.skipReason)
  })

  // Bun's JSON.parse (JavaScriptCore's) gives no position: its 9030 message says so.
  conformance('fetch on Bun', inChild(RUNTIMES.onBun), { jsonParseErrorWithoutPosition: true })

  conformance('fetch on Deno', inChild(RUNTIMES.onDeno))
})

describe.skipIf(RUNTIMES.run)(`the fetch adapter on Bun and Deno: ${RUNTIMES.skipReason}`, () => {
  it.skip('is not run here', () => {})
})
