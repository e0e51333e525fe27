import { defaultServerConditions } from 'vite'
import { defineConfig } from 'vitest/config'
import { projects } from './vitest.workspace.ts'

export default defineConfig({
  // Workspace packages export { "source": "./src/index.ts" }: tests run against the TypeScript
  // sources, so no build is needed between an edit and a test run. Vitest runs node tests in the
  // SSR environment, hence ssr.resolve (plain resolve.conditions would be ignored).
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
  test: {
    projects,
    // Both cores: vitest's default leaves one free (cores - 1), which on the 2-core CI machine
    // ran the files one after another (659 s). The tests bound only hangs (vitest.workspace.ts),
    // so a busier machine slows them without failing them.
    maxWorkers: 2,
    reporters: ['default', './tools/summary-reporter.ts'],
  },
})
