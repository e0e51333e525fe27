import { tmpdir } from 'node:os'
import { basename } from 'node:path'
import { describe, expect, it } from 'vitest'

// The project's globalSetup (tools/test-temp-folder.ts) gives the run a temporary folder of its
// own, removed when the run ends, which every test file and child process inherits.
describe('the tests’ temporary folder', () => {
  it('is the run’s own, short enough for the sockets made in it', () => {
    expect(basename(tmpdir())).toMatch(/^es-run-/)
    expect(process.env.TMPDIR).toBe(tmpdir())
    // A cluster worker's write socket: `entistore-w-`, 60 characters of its origin, `.sock`.
    expect(tmpdir().length + 78).toBeLessThanOrEqual(107)
  })
})
