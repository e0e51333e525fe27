/**
 * The fetch adapter in the runtimes it is for: the conformance suite against the handler served by
 * Bun (on the sources, `--conditions=source`) and by Deno (`deno serve`, on the built packages:
 * `npm run build` first), each in a child process, compared byte for byte with the node listener.
 * Their binaries come from npm (optional dependencies of the repository, for Linux x64).
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, vi } from 'vitest'
import { runExample, type RunOptions } from '../../../../examples/run-example.fixture.ts'
import { conformance, type Served, type StartServer } from '../node/conformance.fixture.js'

const WORKER = 'packages/rest/src/fetch/company-worker.fixture.ts'
const installed = (path: string): string =>
  fileURLToPath(new URL(`../../../../node_modules/${path}`, import.meta.url))
const BUN = installed('@oven/bun-linux-x64/bin/bun')
const DENO = installed('@deno/linux-x64-glibc/deno')

// A runtime starting up (Deno compiling the worker the first time) takes longer than a hook may.
vi.setConfig({ hookTimeout: 60_000 })

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

describe.runIf(process.platform === 'linux' && process.arch === 'x64')(
  'the fetch adapter on Bun and Deno',
  () => {
    if (!existsSync(BUN) || !existsSync(DENO))
      throw new Error(`${BUN} or ${DENO} is missing: run npm install`)

    // Bun's JSON.parse (JavaScriptCore's) gives no position: its 9030 message says so.
    conformance('fetch on Bun', inChild({ command: [BUN, 'run', '--conditions=source'] }), {
      jsonParseErrorWithoutPosition: true,
    })

    conformance(
      'fetch on Deno',
      inChild({
        command: [DENO, 'serve', '--port', '0', '--allow-read', '--allow-env'],
        // No update check, and Deno's cache inside the repository's, not in the home folder.
        env: {
          DENO_NO_UPDATE_CHECK: '1',
          DENO_DIR: fileURLToPath(new URL('../../../../node_modules/.cache/deno', import.meta.url)),
        },
      }),
    )
  },
)
