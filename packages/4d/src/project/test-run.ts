/**
 * @module A project's test suites run (issue 80), each test in the one 4D process of its suite
 * (ProjectRunner.process), within a budget of its own, its result told as it ends:
 *
 * - **passed**: it returned, and the framework's testing object (below) says no failure;
 * - **failed**: an `ASSERT` that did not hold (4D's error -10518, which stops the method, as a 4D
 *   error with no handler does), or the framework's object marked failed;
 * - **error**: any other 4D error it did not catch, a setup or hook that failed, or a JavaScript
 *   error of the engine (said as such);
 * - **timedOut**: it ran past its budget (BudgetExceeded, 9410, which no `Catch` catches).
 *
 * **The public frameworks, as far as they run here.** A project that holds the class `Testing` of
 * the framework whose test classes end with `Test` (github.com/KyleKincer/testing: `Function
 * test_x($t : cs.Testing)`, `$t.assert.areEqual($t; …)`) has each test function given a new
 * `cs.Testing` object, read after the call: `$t.failed`, and the assertions that did not pass
 * (`$t.assertions`: expected, actual, message) are the failure's. Frameworks whose runners find
 * tests by reading the code (`METHOD GET CODE`) are run by their test methods, as any method.
 */
import { budgetOf } from '../runtime/context/budget.js'
import type { ClassObject } from '../runtime/context/class-object.js'
import { FourDError } from '../runtime/errors/fourd-error.js'
import { Collection } from '../runtime/values/collection.js'
import { withLimits } from '../runtime/values/limits.js'
import { enterCall, leaveCall, THROUGH_CORE } from '../runtime/ops/call-depth.js'
import type { ProjectProcess } from './project-runner.js'
import type { Hook, ProjectTest, TestSuite } from './project-tests.js'

export type TestStatus = 'passed' | 'failed' | 'error' | 'timedOut'

/** Why a test did not pass: the error or the failed assertions, and where. */
export interface TestFailure {
  readonly message: string
  /** The 4D error's code (-10518 for an `ASSERT`), when it was one. */
  readonly errCode?: number
  /** The file and 4D line where it happened (relative, as the test's `file`), when known. */
  readonly file?: string
  readonly line?: number
  /** Where: `test_totals`, `InvoiceTest.test_total`, a hook (`InvoiceTest.setup`). */
  readonly where?: string
  /** The framework's failed assertions, one line each (`expected 5, got 4: totals`). */
  readonly assertions?: readonly string[]
  /** What a failed `ASSERT` of a comparison compared (`242.5 = 250`). */
  readonly compared?: string
}

export interface TestResult {
  readonly test: ProjectTest
  readonly status: TestStatus
  readonly ms: number
  readonly failure?: TestFailure
}

export interface RunSuiteOptions {
  /** The time each test (and each hook) may run, in milliseconds. */
  readonly budgetMs: number
  /** The clock of the budgets and the times (the datastore's). */
  readonly clock: { now(): number }
  /** Once a class's `setup` ran (or its instance was made): its tests start from what it left. */
  readonly afterSetup?: () => void
  /** Before each test: the datastore back to where tests start (a fixture's reset). */
  readonly beforeTest?: (test: ProjectTest) => void
}

/** Runs `body` as the runner runs code: the project's bounds, a level through the host. */
function inProcess<T>(p: ProjectProcess, body: () => T): T {
  return withLimits(p.limits, () =>
    p.rt.run(() => {
      enterCall(THROUGH_CORE)
      try {
        return body()
      } finally {
        leaveCall(THROUGH_CORE)
      }
    }),
  )
}

const text = (v: unknown): string =>
  v === null || v === undefined
    ? 'Null'
    : typeof v === 'string'
      ? JSON.stringify(v)
      : typeof v === 'object'
        ? v instanceof Collection
          ? '<collection>'
          : '<object>'
        : String(v)

/** An `ASSERT`'s compared operands (`[left, op, right]`) as a line: `compared: "a = b"`. */
function comparedOf(compared: unknown): { compared?: string } {
  if (!Array.isArray(compared) || compared.length !== 3) return {}
  return { compared: `${text(compared[0])} ${String(compared[1])} ${text(compared[2])}` }
}

/** The failure an error makes, and the status it gives. */
function failureOf(e: unknown, where: string): { status: TestStatus; failure: TestFailure } {
  if (FourDError.is(e)) {
    const status: TestStatus =
      e.errCode === -10518 ? 'failed' : e.errCode === 9410 ? 'timedOut' : 'error'
    return {
      status,
      failure: {
        message: e.message,
        errCode: e.errCode,
        where: e.method ?? where,
        ...(e.file === undefined ? {} : { file: e.file }),
        ...(e.line === undefined || e.line === 0 ? {} : { line: e.line }),
        ...comparedOf(e.details?.compared),
      },
    }
  }
  const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e)
  return { status: 'error', failure: { message: `the engine failed: ${message}`, where } }
}

/** What a framework's testing object says after a test: undefined when it passed. */
function testingFailure(t: object, test: ProjectTest, where: string): TestFailure | undefined {
  const o = t as Record<string, unknown>
  if (o.failed !== true) return undefined
  const items = o.assertions instanceof Collection ? o.assertions.items : []
  const assertions = items
    .filter((a): a is Record<string, unknown> => typeof a === 'object' && a !== null)
    .filter((a) => a.passed === false)
    .map(
      (a) =>
        `expected ${text(a.expected)}, got ${text(a.actual)}${typeof a.message === 'string' && a.message !== '' ? `: ${a.message}` : ''}`,
    )
  const logs = o.logMessages instanceof Collection ? o.logMessages.items.map(String) : []
  const chain = o.failureCallChain instanceof Collection ? o.failureCallChain.items : []
  const frame = chain.find(
    (f): f is Record<string, unknown> =>
      typeof f === 'object' && f !== null && (f as Record<string, unknown>).name === where,
  )
  const line = typeof frame?.line === 'number' && frame.line > 0 ? frame.line : test.line
  return {
    message: assertions[0] ?? logs[0] ?? 'the test marked itself failed',
    where,
    file: test.file,
    line,
    ...(assertions.length === 0 ? {} : { assertions }),
  }
}

type Outcome = ReturnType<typeof failureOf>

/** A suite run test by test: `start`, then `run` for each test, then `end` (SuiteRun is one). */
export interface SuiteSteps {
  start(): void
  run(test: ProjectTest): TestResult
  /** The teardown's result when it fails, else undefined. */
  end(): TestResult | undefined
}

/** Runs `tests` through `steps` in order, each result (a teardown's too) told to `told`. */
export function runSteps(
  steps: SuiteSteps,
  tests: readonly ProjectTest[],
  told: (result: TestResult) => void = () => {},
): TestResult[] {
  const out: TestResult[] = []
  const tell = (r: TestResult): void => {
    out.push(r)
    told(r)
  }
  steps.start()
  for (const test of tests) tell(steps.run(test))
  const down = steps.end()
  if (down !== undefined) tell(down)
  return out
}

/**
 * The tests of one suite run one at a time, in the one process of the suite: `start` makes the
 * class's instance and runs its `setup` (if either fails, each test is an error of it, and none
 * runs), `run` runs one test between `beforeEach` and `afterEach`, `end` runs `teardown`. A test
 * runner whose own tests are the suite's (a Vitest or Jest suite: runProjectTests) calls them as
 * its hooks and tests; `runSuite` runs them all.
 */
export class SuiteRun implements SuiteSteps {
  readonly #process: ProjectProcess
  readonly #suite: TestSuite
  readonly #options: RunSuiteOptions
  readonly #cls: ClassObject | undefined
  readonly #testing: ClassObject | undefined
  #self: object | undefined
  #broken: Outcome | undefined

  constructor(process: ProjectProcess, suite: TestSuite, options: RunSuiteOptions) {
    this.#process = process
    this.#suite = suite
    this.#options = options
    this.#cls = suite.className === undefined ? undefined : process.classes.get(suite.className)
    if (suite.className !== undefined && this.#cls === undefined)
      throw new TypeError(`SuiteRun: no class ${suite.className}`)
    this.#testing = process.classes.get('Testing')
  }

  #budget(): void {
    this.#process.rt.useBudget(budgetOf(this.#options.budgetMs, this.#options.clock))
  }

  // A hook of the class, run on its instance: the failure it made, if any.
  #hook(name: Hook): Outcome | undefined {
    if (!this.#suite.hooks.has(name)) return undefined
    this.#budget()
    const { rt } = this.#process
    try {
      inProcess(this.#process, () => rt.invoke(this.#cls!.findFunction(name)!, this.#self, []))
      return undefined
    } catch (e) {
      return failureOf(e, `${this.#suite.className}.${name}`)
    }
  }

  /** The class's instance made and its `setup` run (nothing for the project's test methods). */
  start(): void {
    const cls = this.#cls
    if (cls === undefined) return
    this.#budget()
    try {
      this.#self = inProcess(this.#process, () => cls.construct(this.#process.rt, []))
    } catch (e) {
      this.#broken = failureOf(e, `${this.#suite.className}.constructor`)
    }
    this.#broken ??= this.#hook('setup')
    if (this.#broken === undefined) this.#options.afterSetup?.()
  }

  /** One test of the suite, after `start`. */
  run(test: ProjectTest): TestResult {
    const { clock } = this.#options
    const started = clock.now()
    if (this.#broken !== undefined)
      return { test, status: 'error', ms: 0, failure: this.#broken.failure }
    this.#options.beforeTest?.(test)
    const before = this.#hook('beforeEach')
    let result: { status: TestStatus; failure?: TestFailure } = before ?? { status: 'passed' }
    if (before === undefined) {
      this.#budget()
      const { rt } = this.#process
      const cls = this.#cls
      try {
        const t =
          cls !== undefined && this.#testing !== undefined
            ? newTesting(this.#process, this.#testing)
            : undefined
        inProcess(this.#process, () =>
          cls === undefined
            ? rt.method(test.name, [])
            : rt.invoke(cls.findFunction(test.name)!, this.#self, t === undefined ? [] : [t]),
        )
        const failed = t === undefined ? undefined : testingFailure(t, test, test.id)
        if (failed !== undefined) result = { status: 'failed', failure: failed }
      } catch (e) {
        result = failureOf(e, test.id)
      }
      const after = this.#hook('afterEach')
      if (after !== undefined && result.status === 'passed') result = after
    }
    return { test, ...result, ms: clock.now() - started }
  }

  /**
   * The class's `teardown` run: a result of its own when it fails (the tests before it ran as
   * they were told), else undefined.
   */
  end(): TestResult | undefined {
    const started = this.#options.clock.now()
    const down = this.#broken === undefined ? this.#hook('teardown') : undefined
    if (down === undefined) return undefined
    const suite = this.#suite
    return {
      test: { id: `${suite.className}.teardown`, name: 'teardown', file: suite.file!, line: 1 },
      status: 'error',
      failure: down.failure,
      ms: this.#options.clock.now() - started,
    }
  }
}

/**
 * Runs the tests of `suite` in `process`, in order, telling each result to `told` as it ends;
 * returns them all.
 */
export function runSuite(
  process: ProjectProcess,
  suite: TestSuite,
  options: RunSuiteOptions,
  told: (result: TestResult) => void = () => {},
): TestResult[] {
  return runSteps(new SuiteRun(process, suite, options), suite.tests, told)
}

/** A new `cs.Testing` of the framework, for one test function. */
const newTesting = (process: ProjectProcess, testing: ClassObject): object =>
  inProcess(process, () => testing.construct(process.rt, []))
