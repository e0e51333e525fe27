/**
 * @module A 4D project's tests as the tests of a JavaScript test runner (issue 80): each suite a
 * `describe`, each 4D test an `it` that fails with the 4D failure (its file and line, the 4D line
 * beneath), so that a team runs its 4D tests and its TypeScript tests in one Vitest or Jest run:
 *
 *     import { afterAll, beforeAll, describe, it } from 'vitest'
 *     import { runProjectTests } from 'entistore/fixture'
 *     await runProjectTests({ project: 'MyApp', data: 'MyApp/csv' }, { describe, it, beforeAll, afterAll })
 *
 * A suite's `setup` runs in its `beforeAll`, its `teardown` in its `afterAll` (a failure of it
 * fails the hook); each test runs as `entistore test` runs it (testing/project-tests.ts).
 */
import { join } from 'node:path'
import type { TestResult } from '@entistore/4d'
import { openProjectTests, type ProjectTests, type ProjectTestsOptions } from './project-tests.js'
import { suiteName } from './reporters/junit.js'
import { failurePlace, STATUS_WORDS } from './reporters/reporter.js'

/** The four functions of a test runner's API this registers with (Vitest's, Jest's). */
export interface TestApi {
  /** A group of tests: one a test class (`FleetTest`), the project's test methods as `methods`. */
  describe(name: string, body: () => void): unknown
  /** One test: a 4D test method or test function, failing with a ProjectTestFailure. */
  it(name: string, body: () => void): unknown
  /** Before a group's tests: the data as loaded, a new 4D process, the class's `setup`. */
  beforeAll(body: () => void): unknown
  /** After them: the class's `teardown` (its failure fails the hook). */
  afterAll(body: () => void): unknown
}

/** A 4D test's failure, as the runner shows it: the 4D place, the message, the 4D line. */
export class ProjectTestFailure extends Error {
  override readonly name = 'ProjectTestFailure'
  /** The result that failed. */
  readonly result: TestResult

  constructor(result: TestResult, tests: ProjectTests) {
    const f = result.failure!
    const { file, line } = failurePlace(result, f)
    const text = line === undefined ? undefined : tests.sourceLine(file, line)
    const place = `${join(tests.root, file)}${line === undefined ? '' : `:${line}`}`
    const status = STATUS_WORDS[result.status]
    super(
      [
        `${result.test.id} ${status}: ${f.message}`,
        ...(f.assertions?.slice(1) ?? []),
        `    at ${place}`,
        ...(text === undefined ? [] : [`    ${line} | ${text.trim()}`]),
        ...(f.compared === undefined ? [] : [`    compared: ${f.compared}`]),
      ].join('\n'),
    )
    this.result = result
  }
}

/**
 * Loads the project and its data, and registers each of its tests with `api`: call it at the
 * top level of a test file, awaited. Resolves to the loaded tests (their suites, their files).
 */
export async function runProjectTests(
  options: ProjectTestsOptions,
  api: TestApi,
): Promise<ProjectTests> {
  const tests = await openProjectTests(options)
  for (const suite of tests.suites) {
    api.describe(suiteName(suite), () => {
      const steps = tests.suite(suite)
      api.beforeAll(() => steps.start())
      for (const test of suite.tests)
        api.it(test.name, () => {
          const result = steps.run(test)
          if (result.status !== 'passed') throw new ProjectTestFailure(result, tests)
        })
      api.afterAll(() => {
        const down = steps.end()
        if (down !== undefined) throw new ProjectTestFailure(down, tests)
      })
    })
  }
  return tests
}
