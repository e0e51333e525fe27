import { createDatastore, type Clock } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { compileProject } from './compile-project.js'
import { executableLines } from './executable-lines.js'
import { ProjectRunner } from './project-runner.js'
import { namePattern, projectTests, testFolderMembers } from './project-tests.js'
import type { ProjectSource } from './sources.js'
import { runSuite, type TestResult } from './test-run.js'

const method = (name: string, text: string): ProjectSource => ({
  path: `Sources/Methods/${name}.4dm`,
  kind: 'method',
  text,
})
const cls = (name: string, text: string): ProjectSource => ({
  path: `Sources/Classes/${name}.4dm`,
  kind: 'class',
  text,
})

const sources: ProjectSource[] = [
  method('test_sums', 'ASSERT(1+1=2)\n'),
  method('Test_Totals', 'ASSERT(True)\n'),
  method('testRental', 'ASSERT(True)\n'),
  method('test', '// a framework runner, not a test\n'),
  method('testament', '// not a test\n'),
  method('helper', '#DECLARE() : Integer\nreturn 7\n'),
  method('inFolder', 'ASSERT(helper=7)\n'),
  cls(
    'InvoiceTest',
    'Class constructor()\n\nFunction setup()\n\nFunction test_one()\n\tASSERT(True)\n\nFunction helper()\n',
  ),
  cls('PlainTests', 'Class constructor()\n\nFunction testTwo()\n\tASSERT(True)\n'),
  cls('NoTestsTest', 'Class constructor()\n\nFunction other()\n'),
  cls('CarTest', 'Class extends Entity\n\nFunction test_x()\n'),
  cls('ShareTest', 'shared singleton Class constructor()\n\nFunction test_x()\n'),
  cls('Utils', 'Class constructor()\n\nFunction test_notATestClass()\n'),
]

describe('projectTests', () => {
  const project = compileProject(sources)

  it('finds the test methods and the test functions of the test classes, by the conventions', () => {
    const suites = projectTests(project)
    expect(suites.map((s) => [s.className, s.tests.map((t) => t.id)])).toEqual([
      [undefined, ['test_sums', 'Test_Totals', 'testRental']],
      ['InvoiceTest', ['InvoiceTest.test_one']],
      ['PlainTests', ['PlainTests.testTwo']],
    ])
    const invoice = suites[1]!
    expect([...invoice.hooks]).toEqual(['setup'])
    expect(invoice.tests[0]).toEqual({
      id: 'InvoiceTest.test_one',
      name: 'test_one',
      file: 'Sources/Classes/InvoiceTest.4dm',
      line: 5,
    })
  })

  it("adds the methods and classes of a Tests folder, and takes a team's own patterns", () => {
    const members = testFolderMembers({
      Tests: { methods: ['inFolder'], groups: ['Deeper'] },
      Deeper: { classes: ['Utils'] },
      Other: { methods: ['helper'] },
    })
    expect([...members.methods]).toEqual(['inFolder'])
    expect([...members.classes]).toEqual(['Utils'])
    const suites = projectTests(project, {}, members)
    expect(suites[0]!.tests.map((t) => t.id)).toContain('inFolder')
    expect(suites.map((s) => s.className)).toContain('Utils')
    // Patterns replace the default of their kind, compared without case as 4D compares names.
    const own = projectTests(project, { methods: ['HELP@'], classes: ['@Tests'] })
    expect(own.map((s) => [s.className, s.tests.map((t) => t.id)])).toEqual([
      [undefined, ['helper']],
      ['PlainTests', ['PlainTests.testTwo']],
    ])
  })

  it('reads 4D name patterns: @ is any run, the rest as written', () => {
    expect(namePattern('test_@').test('TEST_x')).toBe(true)
    expect(namePattern('a.b@').test('axbc')).toBe(false)
    expect(namePattern('@Spec').test('InvoiceSpec')).toBe(true)
  })
})

/** A clock one millisecond later at each read: a budget counts reads, not time. */
function tickingClock(): Clock {
  let t = 0
  return { now: () => (t += 1) }
}

const MODEL = {
  dataClasses: [
    {
      name: 'Invoice',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'total', type: 'number' },
      ],
      key: [{ name: 'ID' }],
    },
  ],
} as const

describe('runSuite', () => {
  const project = compileProject([
    method('test_ok', 'ASSERT(ds.Invoice.all().length=2)\n'),
    // Each operand of an ASSERT's comparison is evaluated once: the push runs once.
    method('test_once', '$c:=[]\nASSERT($c.push(1).length=1)\nASSERT(Asserted($c.length<2))\n'),
    method('test_fails', '// a comment\nASSERT(1=2; "one is two")\n'),
    method('test_errs', 'throw(7; "down")\n'),
    method('test_spins', 'While (True)\nEnd while\n'),
    method(
      'test_writes',
      'var $i : cs.InvoiceEntity\n$i:=ds.Invoice.new()\n$i.total:=1\n$i.save()\nASSERT(ds.Invoice.all().length=3)\n',
    ),
    cls(
      'HooksTest',
      [
        'property log : Collection',
        'Class constructor()',
        '\tThis.log:=[]',
        'Function setup()',
        '\tThis.log.push("setup")',
        'Function beforeEach()',
        '\tThis.log.push("before")',
        'Function afterEach()',
        '\tThis.log.push("after")',
        'Function teardown()',
        '\tThis.log.push("teardown")',
        '\tASSERT(False; "teardown fails")',
        'Function test_a()',
        '\tASSERT(This.log.join(",")="setup,before")',
        'Function test_b()',
        '\tASSERT(This.log.join(",")="setup,before,after,before")',
      ].join('\n'),
    ),
    cls('BrokenTest', 'Class constructor()\n\tthrow(3; "cannot start")\n\nFunction test_x()\n'),
    cls(
      'Testing',
      'property failed : Boolean\nproperty assertions : Collection\nClass constructor()\n\tThis.failed:=False\n\tThis.assertions:=[]\nFunction fail($e; $a; $m : Text)\n\tThis.failed:=True\n\tThis.assertions.push({passed: False; expected: $e; actual: $a; message: $m})\n',
    ),
    cls(
      'FrameworkTest',
      'Class constructor()\nFunction test_holds($t : cs.Testing)\n\tASSERT($t#Null)\nFunction test_marks($t : cs.Testing)\n\t$t.fail(3; 4; "three is four")\n',
    ),
  ])
  const ds = createDatastore(MODEL, {
    data: {
      Invoice: [
        { ID: 1, total: 10 },
        { ID: 2, total: 20 },
      ],
    },
    clock: tickingClock(),
  })
  const runner = new ProjectRunner(project)
  const loaded = ds.snapshot()
  const run = (className?: string): TestResult[] => {
    const suite = projectTests(project).find((s) => s.className === className)!
    return runSuite(runner.process(ds, 1000), suite, {
      budgetMs: 1000,
      clock: ds.clock,
      beforeTest: () => ds.restore(loaded),
    })
  }

  it('tells passed, failed (an ASSERT), error (a 4D error) and timed out apart, each at its line', () => {
    const byId = Object.fromEntries(run().map((r) => [r.test.id, r]))
    expect(byId.test_ok!.status).toBe('passed')
    expect(byId.test_once!.status).toBe('passed')
    expect(byId.test_fails).toMatchObject({
      status: 'failed',
      failure: {
        message: 'Assert failed: one is two',
        errCode: -10518,
        file: 'Sources/Methods/test_fails.4dm',
        line: 2,
        compared: '1 = 2',
      },
    })
    expect(byId.test_errs).toMatchObject({
      status: 'error',
      failure: { message: 'down', errCode: 7, line: 1 },
    })
    expect(byId.test_spins).toMatchObject({ status: 'timedOut', failure: { errCode: 9410 } })
    // Each test from the loaded data: the write of test_writes is not seen by the next run.
    expect(byId.test_writes!.status).toBe('passed')
    expect(run().find((r) => r.test.id === 'test_writes')!.status).toBe('passed')
  })

  it('runs setup once, beforeEach and afterEach around each test, teardown after: its failure a result', () => {
    const results = run('HooksTest')
    expect(results.map((r) => [r.test.id, r.status])).toEqual([
      ['HooksTest.test_a', 'passed'],
      ['HooksTest.test_b', 'passed'],
      ['HooksTest.teardown', 'error'],
    ])
    expect(results[2]!.failure?.message).toBe('Assert failed: teardown fails')
  })

  it('makes each test of a class that cannot be made an error of its constructor', () => {
    const [r] = run('BrokenTest')
    expect(r).toMatchObject({
      status: 'error',
      failure: { message: 'cannot start', where: 'BrokenTest.constructor' },
    })
  })

  it("gives each test function a new cs.Testing and reads its failures, as the frameworks' runners do", () => {
    const [holds, marks] = run('FrameworkTest')
    expect(holds!.status).toBe('passed')
    expect(marks).toMatchObject({
      status: 'failed',
      failure: {
        message: 'expected 3, got 4: three is four',
        file: 'Sources/Classes/FrameworkTest.4dm',
        line: 4,
      },
    })
  })
})

describe('executableLines', () => {
  it('lists the lines that run: statements and Case branches, not declarations nor block ends', () => {
    const [m] = compileProject([
      method(
        'm',
        [
          '#DECLARE($n : Integer) : Integer', // 1
          'var $a : Integer', // 2: declares
          'var $b:=2', // 3
          'If ($n>0)', // 4
          '\t$a:=1', // 5
          'Else', // 6
          '\t$a:=2', // 7
          'End if', // 8
          'Case of', // 9
          '\t: ($a=1)', // 10
          '\t\treturn 1', // 11
          'End case', // 12
          '// a comment', // 13
          'return $a+$b', // 14
        ].join('\n'),
      ),
    ]).methods
    expect(executableLines(m!.ast)).toEqual([3, 4, 5, 7, 9, 10, 11, 14])
  })
})
