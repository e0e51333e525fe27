/**
 * `npm run bench -- --model m.json --data d.json` (issue 52): its options, and the suite on the
 * demo's files with rounds of a fraction of a second, so that it cannot rot. The figures are not
 * checked (speed goals live in the bench), only that every row has one.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import { ensurePackagesBuilt, loadEngine } from './engine.ts'
import { parseOwnData } from './own-data.ts'
import { runOwnDataSuite } from './suites/own-data.bench.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const demo = (f: string) => `${root}examples/company/${f}`

describe('npm run bench -- --model m.json --data d.json', () => {
  it('takes the files as `--model m.json` or `--model=m.json`, and --quick', () => {
    const o = parseOwnData(['--model', demo('model.json'), `--data=${demo('data.json')}`])
    expect(o.model).toBe(demo('model.json'))
    expect(o.data).toBe(demo('data.json'))
    expect(
      parseOwnData(['--quick', '--model', demo('model.json'), '--data', demo('data.json')]).load
        .seconds,
    ).toBe(1)
  })

  it('says what is wrong in one line, with the usage, and exits 2', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], {
        cwd: root,
        encoding: 'utf8',
      })
    const missing = run('--model', demo('model.json'))
    expect(missing.status).toBe(2)
    expect(missing.stderr).toMatch(/^npm run bench: --data is needed too\n {2}--model m\.json/)
    const other = run('--model', demo('model.json'), '--data', demo('data.json'), '--sizes=1k')
    expect(other.status).toBe(2)
    expect(other.stderr).toContain(
      '--sizes=1k: with --model and --data, the only other option is --quick',
    )
  })

  it('measures the load, every dataclass and its attributes, and serve against raw node:http', async () => {
    ensurePackagesBuilt('auto')
    const { core } = await loadEngine('source')
    const lines: string[] = []
    const log = vi.spyOn(console, 'log').mockImplementation((s: string) => void lines.push(s))
    try {
      await runOwnDataSuite(core, {
        model: demo('model.json'),
        data: demo('data.json'),
        timing: { warmup: 0, reps: 1, minSampleMs: 1 },
        load: {
          connections: 2,
          seconds: 0.2,
          rounds: 1,
          warmupSeconds: 0,
          pathsPerConnection: 16,
        },
        attributes: 2,
        samples: 20,
      })
    } finally {
      log.mockRestore()
    }
    const out = lines.join('\n')
    expect(out).toMatch(/## Your data: .*data\.json \([\d,]+ B, [\d,]+ rows in 3 dataclasses\)/)
    expect(out).toMatch(/\| load, ms +\| +[\d.]+ \| +[\d.]+ \|/)
    for (const dc of ['Company', 'Employee', 'Project'])
      expect(out).toMatch(new RegExp(`\\| ${dc}: get by key +\\| plain: Map\\.get`))
    expect(out).toMatch(/\| Employee\.firstName \(string\) = +\| plain: filter loop/)
    expect(out).toMatch(/\| entistore serve +\| +[\d,]+ \|/)
    expect(out).not.toMatch(/Error|NaN/)
  })
})
