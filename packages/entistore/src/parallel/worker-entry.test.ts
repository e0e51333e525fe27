// The Node options a pool's worker keeps (worker-entry.ts): what would break it is dropped.
import { describe, expect, it } from 'vitest'
import { workerEntry, workerExecArgv } from './worker-entry.js'

describe("a pool worker's start", () => {
  it('keeps only how warnings are told: no loader, condition, script or V8 limit', () => {
    const vitest = ['--experimental-import-meta-resolve', '--require', '/x/suppress-warnings.cjs']
    expect(
      workerExecArgv([
        ...vitest,
        '--conditions',
        'source',
        '-C=node',
        '--max-old-space-size=512',
        '--enable-source-maps',
        '--input-type=module',
        '-e',
        'code()',
        '--import',
        'tsx',
        '--unhandled-rejections=strict',
      ]),
    ).toEqual(['--enable-source-maps', '--unhandled-rejections=strict'])
  })

  it('starts a worker from a process given a heap limit (a worker refuses the flag)', async () => {
    const { Worker } = await import('node:worker_threads')
    const worker = new Worker('0', {
      eval: true,
      execArgv: workerExecArgv(['--max-old-space-size=512']),
    })
    expect(await new Promise((resolve) => worker.on('exit', resolve))).toBe(0)
  })

  it('runs the built entry, even from the TypeScript source', () => {
    expect(workerEntry().pathname).toMatch(
      /\/packages\/entistore\/dist\/parallel\/pool-worker\.js$/,
    )
  })
})
