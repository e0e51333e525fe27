/**
 * docs/ci.md's workflow, each `npx entistore` line of it run as the CI would run it, on the two
 * examples in place of the team's project (`--project .` and `--data Data/csv` given theirs):
 * car-rental is clean, so each step passes; failing-tests has a failing test and code that cannot
 * run here, so its steps exit 1 with their annotations (issue 80).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../commands/cli-serve.fixture.js'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
const page = readFileSync(join(root, 'docs/ci.md'), 'utf8')
const workflow = /```yaml\n([\s\S]*?)```/.exec(page)![1]!
/** The workflow's `npx entistore …` steps, as argv, what they write to a file left aside. */
const steps = [...workflow.matchAll(/^\s+run: npx entistore (.*)$/gm)].map((m) =>
  m[1]!.replace(/ >.*$/, '').split(' '),
)

describe("docs/ci.md's workflow", () => {
  const dir = mkdtempSync(join(tmpdir(), 'entistore-ci-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  /** A step's argv on `example` instead of the team's project, its report files in `dir`. */
  const on = (argv: readonly string[], example: string): string[] =>
    argv.map((a, i) =>
      argv[i - 1] === '--project' && a === '.'
        ? join(root, 'examples', example)
        : argv[i - 1] === '--data' && a === 'Data/csv'
          ? join(root, 'examples', example, 'csv')
          : argv[i - 1] === '--coverage'
            ? join(dir, `${example}-${a}`)
            : a.replace(/=(.*\.xml)$/, (_, file: string) => `=${join(dir, `${example}-${file}`)}`),
    )

  it('has the steps this test runs: check with annotations, test with three reporters, SARIF', () => {
    expect(steps.map((s) => s.slice(0, 1).concat(s.filter((a) => a.startsWith('--'))))).toEqual([
      ['check', '--project', '--format'],
      ['test', '--project', '--data', '--reporter', '--reporter', '--reporter', '--coverage'],
      ['check', '--project', '--format'],
    ])
  })

  it('passes on a clean project: car-rental', async () => {
    const [check, test, sarif] = steps
    const checked = await runCli(on(check!, 'car-rental'))
    expect(checked.code).toBe(0)
    expect(checked.out.every((l) => l.startsWith('::warning '))).toBe(true)
    const tested = await runCli(on(test!, 'car-rental'))
    expect(tested.code).toBe(0)
    expect(tested.out.at(-1)).toBe(
      '::notice title=entistore test::entistore test: 7 passed, 0 did not pass',
    )
    expect(readFileSync(join(dir, 'car-rental-test-results.xml'), 'utf8')).toContain(
      'tests="7" failures="0" errors="0"',
    )
    expect(tested.err).toEqual([
      expect.stringMatching(/^Coverage: \d+ of \d+ lines of 4D code run/),
    ])
    expect(readFileSync(join(dir, 'car-rental-lcov.info'), 'utf8')).toContain('SF:')
    const log = await runCli(on(sarif!, 'car-rental'))
    expect(
      JSON.parse(log.out.join('\n')).runs[0].results.every(
        (r: { level: string }) => r.level === 'warning',
      ),
    ).toBe(true)
  })

  it('fails on a failing test and on code that cannot run here, with their annotations', async () => {
    const [check, test] = steps
    const checked = await runCli(on(check!, 'failing-tests'))
    expect(checked.code).toBe(1)
    const method = relative(
      process.cwd(),
      join(root, 'examples/failing-tests/Project/Sources/Methods'),
    )
    expect(checked.out).toEqual([
      `::error file=${method}/showInvoices.4dm,line=3,col=1,title=entistore check (not-runnable)::The command "SET WINDOW TITLE" cannot run here (it needs a user interface)`,
    ])
    const tested = await runCli(on(test!, 'failing-tests'))
    expect(tested.code).toBe(1)
    expect(tested.out).toContain(
      `::error file=${method}/test_assertFails.4dm,line=5,title=test_assertFails failed::Assert failed: the totals sum to 250%0Acompared: 242.5 = 250`,
    )
    expect(readFileSync(join(dir, 'failing-tests-test-results.xml'), 'utf8')).toContain(
      'tests="6" failures="2" errors="2"',
    )
  })
})
