/**
 * worker.ts in the runtimes it is written for, started as the README says: Bun on the TypeScript
 * sources, Deno on the built packages (`npm test` builds them first). Their binaries come from npm
 * (optional dependencies of the repository, for Linux x64: the platform CI runs on).
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { checkEmbedded } from '../embedded.fixture.ts'

const WORKER = 'examples/fetch/worker.ts'
const installed = (path: string): string =>
  fileURLToPath(new URL(`../../node_modules/${path}`, import.meta.url))
const BUN = installed('@oven/bun-linux-x64/bin/bun')
const DENO = installed('@deno/linux-x64-glibc/deno')

describe.runIf(process.platform === 'linux' && process.arch === 'x64')(
  'worker.ts on Bun and Deno',
  () => {
    it('serves reads, writes and errors on Bun (bun run)', async () => {
      expect(existsSync(BUN), `${BUN}: run npm install`).toBe(true)
      await checkEmbedded(WORKER, undefined, {
        command: [BUN, 'run', '--conditions=source'],
      })
    })

    it('serves reads, writes and errors on Deno (deno serve)', async () => {
      expect(existsSync(DENO), `${DENO}: run npm install`).toBe(true)
      await checkEmbedded(WORKER, undefined, {
        command: [DENO, 'serve', '--port', '0', '--allow-read', '--allow-env'],
        // No update check, and Deno's cache inside the repository's, not in the home folder.
        env: {
          DENO_NO_UPDATE_CHECK: '1',
          DENO_DIR: fileURLToPath(new URL('../../node_modules/.cache/deno', import.meta.url)),
        },
      })
    })
  },
)
