// The test projects of this monorepo, one per package. Vitest 4 no longer loads this file on its
// own: vitest.config.ts imports the list and passes it to `test.projects`.
// `extends: true` makes each project inherit the root config (source conditions, reporters).
import { fileURLToPath } from 'node:url'
import type { TestProjectConfiguration } from 'vitest/config'

// A timeout only turns a hang into a failure: it must never decide a correct run, however busy the
// machine. Under two CPU hogs on 2 cores a test runs 2-3 times slower than idle (the HashIndex
// property test: 13 s beside the suite, 33 s with the hogs too, past the 30 s it had; a rest test
// that writes 118 MB, 4-5 s against vitest's default of 5 s). Every project gets the same wide
// bound for its tests and hooks; a test or hook that asks for more keeps its own. The same holds
// for `expect.poll`, whose own default (1 s) is a race: the explorer's page in Chromium, or a
// process's next line, can take longer than that on a busy machine.
const HANG_MS = 180_000
const bounds = {
  testTimeout: HANG_MS,
  hookTimeout: HANG_MS,
  expect: { poll: { timeout: 30_000 } },
}

// An absolute path: Vitest reads a project's globalSetup from its root, tools such as knip from
// the configuration's folder.
const TEMP_FOLDER = fileURLToPath(new URL('./tools/test-temp-folder.ts', import.meta.url))

const pkg = (
  name: string,
  more: { isolate?: boolean; exclude?: string[]; globalSetup?: string[] } = {},
): TestProjectConfiguration => ({
  extends: true,
  test: { name, root: `./packages/${name}`, include: ['src/**/*.test.ts'], ...bounds, ...more },
})

/**
 * The tests that count the work the code does (tools/work-meter.ts) from its first import: they
 * need a module registry of their own, so they run isolated, as a project of their own.
 */
const COUNTING = ['src/query/text-scan.test.ts', 'src/store/load-data.linear.test.ts']

export const projects: TestProjectConfiguration[] = [
  // The two libraries' test files share one module registry per worker (`isolate: false`): they
  // keep no state in modules (each test makes its own datastore, clock and handler), and loading
  // the package again for each of their ~170 files was a third of their time (core 114 -> 94 s,
  // rest 98 -> 55 s run alone on 2 cores). So do the CLI package's (282 -> 225 s alone): the
  // processes, servers, timers and temporary folders its tests start are their own, stopped or
  // removed by each test, and none stubs a global or the environment of the test process.
  pkg('core', { isolate: false, exclude: COUNTING }),
  {
    extends: true,
    test: { name: 'core-counting', root: './packages/core', include: COUNTING, ...bounds },
  },
  pkg('4d', { isolate: false }),
  pkg('rest', { isolate: false }),
  // Its tests' temporary files go in a folder of the run's, removed at its end (what killed
  // children leave there: tools/test-temp-folder.ts).
  pkg('entistore', { isolate: false, globalSetup: [TEMP_FOLDER] }),
  // The runnable examples, each started as its README says and asked a few requests.
  {
    extends: true,
    test: { name: 'examples', root: './examples', include: ['**/*.test.ts'], ...bounds },
  },
  // The public benchmark's smoke run (issue 22): the whole harness on 1k rows, so that it cannot rot.
  {
    extends: true,
    test: { name: 'bench', root: './bench', include: ['*.test.ts'], ...bounds },
  },
  // The repository's own checks (the layers lint).
  { extends: true, test: { name: 'tools', root: './tools', include: ['*.test.ts'], ...bounds } },
]

export default projects
