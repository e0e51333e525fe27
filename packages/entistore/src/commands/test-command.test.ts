/**
 * `entistore test --project` (issue 80) on the examples: car-rental's tests pass (exit 0); those
 * of failing-tests fail in each way the command tells apart (exit 1), said one line a test with
 * the failing 4D line, and as JUnit XML, TAP and GitHub annotations; patterns, a team's
 * `entistore-tests.json`, and the mistakes a user makes.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { main } from '../cli.js'
import { Queue, runCli } from './cli-serve.fixture.js'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
const CAR_RENTAL = join(root, 'examples/car-rental')
const FAILING = join(root, 'examples/failing-tests')
const failing = (...more: string[]) =>
  runCli(['test', '--project', FAILING, '--data', join(FAILING, 'csv'), ...more])
/** A file of the failing project as the command names it: relative to where it runs. */
const named = (file: string): string => relative(process.cwd(), join(FAILING, 'Project', file))

describe('entistore test --project', () => {
  const dir = mkdtempSync(join(tmpdir(), 'entistore-test-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("passes car-rental's own tests, each from the data as loaded: exit 0", async () => {
    const run = await runCli(['test', '--project', CAR_RENTAL, '--data', join(CAR_RENTAL, 'csv')])
    expect(run.err).toEqual([])
    expect(run.code).toBe(0)
    expect(run.out[0]).toMatch(
      /^entistore test: 7 tests in 2 suites of .*car-rental \(loaded in \d+ ms\)$/,
    )
    expect(run.out.slice(1, -1).map((l) => l.replace(/ \d+ ms$/, ''))).toEqual([
      'ok   test_availableCars',
      'ok   test_priceByDay',
      'ok   test_rentalDays',
      'ok   FleetTest.test_statsCountTheFleet',
      // It creates a car; the tests after it still see the fleet setup saw (FleetTest.beforeEach).
      'ok   FleetTest.test_aNewCarJoinsTheFleet',
      'ok   FleetTest.test_aNegativeMileageIsRefused',
      'ok   FleetTest.test_theQuoteIsTheCategorysRate',
    ])
    expect(run.out.at(-1)).toMatch(/^Tests: 7 passed, 0 failed \(\d+ ms\)$/)
  })

  it('tells each failure at its line, with the 4D line beneath, and exits 1', async () => {
    const run = await failing()
    expect(run.code).toBe(1)
    const out = run.out.map((l) => l.replace(/ \d+ ms$/, ''))
    expect(out.slice(1)).toEqual([
      'FAIL test_assertFails (failed)',
      `     ${named('Sources/Methods/test_assertFails.4dm')}:5: Assert failed: the totals sum to 250`,
      '         5 | ASSERT($sum=250; "the totals sum to 250")',
      '     compared: 242.5 = 250',
      'ok   test_passes',
      'FAIL test_runsPastItsBudget (timed out)',
      `     ${named('Sources/Methods/test_runsPastItsBudget.4dm')}:4: The code ran longer than its budget allows`,
      '         4 | While (True)',
      'FAIL test_uncaughtError (error)',
      `     ${named('Sources/Methods/test_uncaughtError.4dm')}:3: the invoice service is down`,
      '         3 | throw(42; "the invoice service is down")',
      'ok   InvoiceTest.test_countsTheInvoices',
      'FAIL InvoiceTest.test_largestInvoice (failed)',
      `     ${named('Sources/Classes/InvoiceTest.4dm')}:7: expected "Grace", got "Ada": the largest invoice is Grace's`,
      '     expected true, got false: no invoice is over 100',
      '         7 | Function test_largestInvoice($t : cs.Testing)',
      expect.stringMatching(/^Tests: 2 passed, 2 failed, 1 error, 1 timed out \(\d+ ms\)$/),
    ])
  })

  it('writes JUnit XML and TAP files, and GitHub annotations on stdout', async () => {
    const junit = join(dir, 'results.xml')
    const tap = join(dir, 'results.tap')
    const run = await failing(
      '--reporter',
      'github',
      '--reporter',
      `junit=${junit}`,
      '--reporter',
      `tap=${tap}`,
    )
    expect(run.code).toBe(1)
    const assertFile = named('Sources/Methods/test_assertFails.4dm')
    expect(run.out).toEqual([
      `::error file=${assertFile},line=5,title=test_assertFails failed::Assert failed: the totals sum to 250%0Acompared: 242.5 = 250`,
      expect.stringMatching(
        /^::error file=.*test_runsPastItsBudget\.4dm,line=4,title=test_runsPastItsBudget timed out::/,
      ),
      expect.stringMatching(
        /^::error file=.*test_uncaughtError\.4dm,line=3,title=test_uncaughtError error::the invoice service is down$/,
      ),
      expect.stringMatching(
        /^::error file=.*InvoiceTest\.4dm,line=7,title=InvoiceTest\.test_largestInvoice failed::expected "Grace", got "Ada": the largest invoice is Grace's%0Aexpected true, got false: no invoice is over 100$/,
      ),
      '::error title=entistore test::entistore test: 2 passed, 4 did not pass',
    ])
    const xml = readFileSync(junit, 'utf8')
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="entistore test .*failing-tests" tests="6" failures="2" errors="2" time="[\d.]+">/,
    )
    expect(xml).toContain('<testsuite name="methods" tests="4" failures="1" errors="2" skipped="0"')
    expect(xml).toContain(
      `<testcase classname="methods" name="test_assertFails" file="${assertFile}" line="1" time=`,
    )
    expect(xml).toContain(
      `<failure message="Assert failed: the totals sum to 250" type="-10518">${assertFile}:5: Assert failed: the totals sum to 250\ncompared: 242.5 = 250</failure>`,
    )
    expect(xml).toContain(
      '<error message="The code ran longer than its budget allows" type="timeout">',
    )
    expect(xml).toContain(`<testsuite name="InvoiceTest" tests="2" failures="1" errors="0"`)
    expect(xml).toContain('expected &quot;Grace&quot;, got &quot;Ada&quot;')
    expect(xml.trimEnd().endsWith('</testsuites>')).toBe(true)
    // --format is --reporter's other name, as check's: the same annotations.
    const format = await failing('--format', 'github')
    expect(format.out).toEqual(run.out)
    const lines = readFileSync(tap, 'utf8').split('\n')
    expect(lines.slice(0, 3)).toEqual(['TAP version 13', 'not ok 1 - test_assertFails', '  ---'])
    expect(lines.slice(-2)).toEqual(['1..6', ''])
    expect(lines).toContain('  message: "Assert failed: the totals sum to 250"')
    expect(lines).toContain('  compared: "242.5 = 250"')
    expect(lines).toContain('ok 2 - test_passes')
    expect(lines).toContain('  status: "timed out"')
    expect(lines).toContain('ok 5 - InvoiceTest.test_countsTheInvoices')
  })

  it('runs the tests a pattern names: a part of the name, or a 4D pattern', async () => {
    const part = await failing('passes', 'countsThe')
    expect(part.code).toBe(0)
    expect(part.out.slice(1, -1).map((l) => l.replace(/ \d+ ms$/, ''))).toEqual([
      'ok   test_passes',
      'ok   InvoiceTest.test_countsTheInvoices',
    ])
    const wildcard = await failing('invoicetest.@')
    expect(wildcard.out[0]).toMatch(/^entistore test: 2 tests in 1 suite of /)
    const none = await failing('nothing_like_it')
    expect(none.code).toBe(1)
    expect(none.err).toEqual([
      `entistore test: no test matching nothing_like_it in ${FAILING} (test methods are named test_…, classes …Test: docs/ci.md)`,
    ])
  })

  it("takes a team's names from entistore-tests.json, and refuses one it cannot read", async () => {
    const copy = join(dir, 'project')
    cpSync(FAILING, copy, { recursive: true })
    writeFileSync(join(copy, 'entistore-tests.json'), '{ "methods": ["@Passes"], "classes": [] }')
    const own = await runCli(['test', '-p', copy, '-d', join(copy, 'csv')])
    expect(own.code).toBe(0)
    expect(own.out.slice(1, -1).map((l) => l.replace(/ \d+ ms$/, ''))).toEqual(['ok   test_passes'])
    writeFileSync(join(copy, 'entistore-tests.json'), '{ "method": ["x"] }')
    const bad = await runCli(['test', '-p', copy])
    expect(bad.code).toBe(1)
    expect(bad.err.join('\n')).toContain(
      `${join(copy, 'entistore-tests.json')}: unknown key "method" ("methods", "classes", "functions", "folders", "budgetMs")`,
    )
  })

  it('writes the lines of 4D code the tests ran as lcov (--coverage), in a process of its own', () => {
    // The CLI as a CI runs it: V8's coverage counts the 4D code compiled after it starts, which
    // in this process other tests compiled before.
    const file = join(dir, 'lcov.info')
    const run = spawnSync(
      process.execPath,
      [
        join(root, 'packages/entistore/bin/entistore.js'),
        'test',
        '-p',
        CAR_RENTAL,
        '-d',
        join(CAR_RENTAL, 'csv'),
        '--coverage',
        file,
      ],
      { encoding: 'utf8' },
    )
    expect(run.status).toBe(0)
    expect(run.stderr).toMatch(
      /^Coverage: \d+ of \d+ lines of 4D code run \([\d.]+%\), in 8 files: /,
    )
    const records = readFileSync(file, 'utf8').split('end_of_record\n')
    const of = (name: string): string[] =>
      records
        .find((r) => r.includes(`SF:${join(CAR_RENTAL, 'Project/Sources/Classes', name)}\n`))!
        .split('\n')
    // DataStore.rentalDays: its If ran 3 times (twice from test_rentalDays, once refused), the
    // throw once, the return twice; appInfo (line 5) never.
    expect(of('DataStore.4dm')).toEqual(
      expect.arrayContaining(['DA:5,0', 'DA:16,3', 'DA:17,1', 'DA:19,2']),
    )
    // CarEntity's validateSave ran for each save (FleetTest's two), its refusal once; the label
    // getter (line 6) never.
    expect(of('CarEntity.4dm')).toEqual(expect.arrayContaining(['DA:6,0', 'DA:16,2', 'DA:17,1']))
    // The tests themselves are not in it.
    expect(records.some((r) => r.includes('FleetTest.4dm') || r.includes('test_'))).toBe(false)
  })

  it('runs the tests again when a file changes (--watch), until stopped: the last run its exit code', async () => {
    const copy = join(dir, 'watched')
    cpSync(FAILING, copy, { recursive: true })
    const runs = new Queue<number>()
    const out: string[] = []
    let stop!: () => void
    const done = main(
      ['test', '--watch', '-p', copy, '-d', join(copy, 'csv'), 'test_assertFails'],
      {
        out: (l) => out.push(l),
        err: () => {},
        stopSignal: new Promise<void>((resolve) => (stop = resolve)),
        onWatchRun: runs.push,
        watchDebounceMs: 20,
      },
    )
    expect(await runs.next()).toBe(1)
    const file = join(copy, 'Project/Sources/Methods/test_assertFails.4dm')
    writeFileSync(file, readFileSync(file, 'utf8').replace('$sum=250', '$sum=242.5'))
    expect(await runs.next()).toBe(0)
    stop()
    expect(await done).toBe(0)
    const summaries = out.filter((l) => l.startsWith('Tests: '))
    expect(summaries.map((l) => l.replace(/ \(\d+ ms\)$/, ''))).toEqual([
      'Tests: 0 passed, 1 failed',
      'Tests: 1 passed, 0 failed',
    ])
    expect(out).toContain(`Watching ${copy} for changes (Ctrl-C to stop)`)
  })

  it("runs the methods of the Explorer's Tests folder, its folders.json read with a BOM as 4D writes it", async () => {
    const copy = join(dir, 'folders')
    cpSync(FAILING, copy, { recursive: true })
    writeFileSync(
      join(copy, 'Project/Sources/folders.json'),
      '\ufeff{ "Tests": { "methods": ["showInvoices"] }, "trash": {} }',
    )
    const run = await runCli(['test', '-p', copy, 'showInvoices'])
    expect(run.code).toBe(1)
    expect(run.out[1]).toMatch(/^FAIL showInvoices \(error\) \d+ ms$/)
    expect(run.out[2]).toMatch(
      /showInvoices\.4dm:3: The command "SET WINDOW TITLE" is not implemented$/,
    )
  })

  it('refuses a usage mistake with exit 2', async () => {
    const noProject = await runCli(['test'])
    expect(noProject.code).toBe(2)
    expect(noProject.err[0]).toBe('entistore: --project <folder> is required')
    const reporter = await runCli(['test', '-p', FAILING, '--reporter', 'xunit'])
    expect(reporter.code).toBe(2)
    expect(reporter.err[0]).toBe(
      'entistore: --reporter must be one of human, junit, tap, github, got "xunit"',
    )
    const timeout = await runCli(['test', '-p', FAILING, '--timeout', '0'])
    expect(timeout.err[0]).toBe(
      'entistore: --timeout must be a whole number of milliseconds, at least 1, got "0"',
    )
    const both = await runCli(['test', '-p', FAILING, '--watch', '--coverage', 'x.info'])
    expect(both.err[0]).toBe('entistore: --coverage and --watch cannot go together')
  })
})
