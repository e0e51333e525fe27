// The test projects of this monorepo, one per package. Vitest 4 no longer loads this file on its
// own: vitest.config.ts imports the list and passes it to `test.projects`.
// `extends: true` makes each project inherit the root config (source conditions, reporters).
import type { TestProjectConfiguration } from 'vitest/config'

const pkg = (name: string, extra: { testTimeout?: number } = {}): TestProjectConfiguration => ({
  extends: true,
  test: { name, root: `./packages/${name}`, include: ['src/**/*.test.ts'], ...extra },
})

export const projects: TestProjectConfiguration[] = [
  // Property-based tests run hundreds of cases per test: give them room on a 2-core machine.
  pkg('core', { testTimeout: 30_000 }),
  pkg('rest'),
  pkg('entistore', { testTimeout: 30_000 }),
  // The runnable examples, each started as its README says and asked a few requests.
  {
    extends: true,
    test: { name: 'examples', root: './examples', include: ['**/*.test.ts'], testTimeout: 60_000 },
  },
  // The public benchmark's smoke run (issue 22): the whole harness on 1k rows, so that it cannot rot.
  {
    extends: true,
    test: { name: 'bench', root: './bench', include: ['*.test.ts'], testTimeout: 60_000 },
  },
  // The repository's own checks (the layers lint).
  { extends: true, test: { name: 'tools', root: './tools', include: ['*.test.ts'] } },
]

export default projects
