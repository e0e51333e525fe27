// The Node options a pool's worker keeps (worker-entry.ts): what would break it is dropped.
import { describe, expect, it } from 'vitest'
import { workerEntry, workerExecArgv } from './worker-entry.js'

describe("a pool worker's start", () => {
  it("drops vitest's and tsx's --conditions, keeping loaders and limits", () => {
    const vitest = ['--experimental-import-meta-resolve', '--require', '/x/suppress-warnings.cjs']
    expect(
      workerExecArgv([...vitest, '--conditions', 'source', '-C=node', '--max-old-space-size=512']),
    ).toEqual([...vitest, '--max-old-space-size=512'])
  })

  it('drops the script of node -e / -p and its --input-type', () => {
    expect(workerExecArgv(['--input-type=module', '-e', 'code()', '--import', 'tsx'])).toEqual([
      '--import',
      'tsx',
    ])
    expect(workerExecArgv(['--input-type', 'module', '--print', '1', '--eval=2'])).toEqual([])
  })

  it('runs the built entry, even from the TypeScript source', () => {
    expect(workerEntry().pathname).toMatch(
      /\/packages\/entistore\/dist\/parallel\/pool-worker\.js$/,
    )
  })
})
