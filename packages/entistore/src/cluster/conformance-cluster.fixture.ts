/**
 * @module `entistore serve` as the conformance suite needs it, for conformance-cluster.test.ts: the
 * CLI's own `main` (its arguments, `--workers N` through node:cluster, `--postgres`, `--redis`),
 * given the hooks that make each process answer as the suite's reference does (company-rest.fixture.ts):
 * a manual clock at the same time, the same body limits, the same `x-two-cookies` wrapper.
 * node:cluster runs this same script in every worker, so every worker gets them.
 *
 * Session ids: the reference numbers them `S1, S2…`, but the workers share theirs through Redis,
 * where numbers counted in each process would collide. Each process numbers its own after its pid
 * (seven digits, the most a Linux pid has), so that ids are unique across the workers and still
 * `S` and digits. Test-only.
 */
import { ManualClock } from '@entistore/core'
import {
  COMPANY_START,
  MAX_BODY_BYTES,
  MAX_UPLOAD_BYTES,
  withTwoCookies,
} from '../../../rest/src/node/company-rest.fixture.js'
import { main } from '../cli.js'

const pid = String(process.pid).padStart(7, '0')
let sessions = 0

process.exitCode = await main(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  datastoreOptions: {
    clock: new ManualClock(COMPANY_START),
    sessions: { newId: () => `S${pid}${++sessions}` },
  },
  serveOptions: {
    maxBodyBytes: MAX_BODY_BYTES,
    maxUploadBytes: MAX_UPLOAD_BYTES,
    wrapCore: withTwoCookies,
  },
})
