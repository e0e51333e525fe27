/**
 * @module A 4D project's own tests run headless (issue 80), against its data as `serve --project`
 * loads it: the project and its data loaded once, then each test against that data as loaded —
 * the datastore restored from a snapshot before each test method and each test class (before its
 * `setup`), and, within a class, before each test to the state its `setup` left. Each class (and
 * the project's test methods together) runs in a 4D process of its own, on a running state made
 * afresh (no `Storage`, interprocess variable or singleton left by another suite). Which code is a
 * test, and how one runs: @entistore/4d's project-tests.ts and test-run.ts.
 *
 * The CLI's `entistore test` and the library's `runProjectTests` are this module.
 */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Datastore } from '@entistore/core'
import {
  namePattern,
  projectTests,
  runSteps,
  SuiteRun,
  testFolderMembers,
  type SuiteSteps,
  type CompiledProject,
  type ProjectRunner,
  type TestConventions,
  type TestResult,
  type TestSuite,
} from '@entistore/4d'
import { FileError } from '../files/file-error.js'
import { readJsonFile } from '../files/json-file.js'
import { loadDatastoreFiles } from '../load/load-files.js'

/** A team's own conventions: this file, in the folder that holds the project's `Project` folder. */
export const TESTS_CONFIG = 'entistore-tests.json'

/** The time a test may run by default, in milliseconds (a hook's too). */
export const TEST_BUDGET_MS = 5000

export interface ProjectTestsOptions {
  /** The 4D project folder (its `Project` folder, or the one that holds it). */
  readonly project: string
  /** Its data: a data file, or a folder of CSV files (as `serve --project --data`). @default none */
  readonly data?: string
  /** Folders of downloaded components (as `serve --components`). */
  readonly components?: readonly string[]
  /**
   * The tests to run: a test runs when its id (`test_totals`, `InvoiceTest.test_total`) holds one
   * of these, without case, or matches it as a 4D pattern (`Invoice@`). @default every test
   */
  readonly patterns?: readonly string[]
  /**
   * Which code is a test, over the project's `entistore-tests.json` and the defaults (each kind
   * given replaces the default's). @default the file's, else the defaults
   */
  readonly conventions?: TestConventions
  /** The time each test may run, in milliseconds. @default the file's `budgetMs`, else 5000 */
  readonly budgetMs?: number
  /** What the loading says (the project's notes): the CLI gives stderr. @default none */
  readonly onNote?: (note: string) => void
}

/** The project's tests, loaded and ready to run. */
export interface ProjectTests {
  /** The suites selected, in their running order. */
  readonly suites: readonly TestSuite[]
  /** How many tests they hold. */
  readonly count: number
  /** The folder the tests' `file`s are relative to: the project's `Project` folder. */
  readonly root: string
  /** The project's code, compiled (its classes and methods: the coverage's files). */
  readonly code: CompiledProject
  /** The 4D source line `line` (1-based) of `file`, as the project holds it. */
  sourceLine(file: string, line: number): string | undefined
  /**
   * One suite, to run test by test (a Vitest or Jest suite's hooks and tests: runProjectTests):
   * `start` first (the data as loaded, a new running state, the class's `setup`), then `run` for
   * each of its tests, in any order, then `end` (its `teardown`: a result when it fails).
   */
  suite(suite: TestSuite): SuiteSteps
  /** Runs every suite in order, each result told to `told` as it ends; returns them all. */
  run(told?: (result: TestResult) => void): TestResult[]
}

/** The conventions and budget of a project's `entistore-tests.json`, checked. */
interface TestsConfig extends TestConventions {
  readonly budgetMs?: number
}

const KINDS = ['methods', 'classes', 'functions', 'folders'] as const

/** Reads `file` (an `entistore-tests.json`), a FileError for what it must not hold. */
export async function readTestsConfig(file: string): Promise<TestsConfig> {
  const parsed = await readJsonFile(file, 'tests')
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new FileError(file, 'must be an object ({ "methods": ["test_@"], … })')
  const config: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(parsed)) {
    if ((KINDS as readonly string[]).includes(key)) {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v !== ''))
        throw new FileError(file, `"${key}" must be a list of name patterns ("test_@")`)
      config[key] = value
    } else if (key === 'budgetMs') {
      if (!Number.isInteger(value) || (value as number) < 1)
        throw new FileError(file, '"budgetMs" must be a whole number of milliseconds, at least 1')
      config[key] = value
    } else
      throw new FileError(
        file,
        `unknown key "${key}" (${[...KINDS, 'budgetMs'].map((k) => `"${k}"`).join(', ')})`,
      )
  }
  return config as TestsConfig
}

/** Whether test `id` is asked for by `patterns` (none: every test). */
export function selected(id: string, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true
  const lower = id.toLowerCase()
  return patterns.some((p) =>
    p.includes('@') ? namePattern(p).test(id) : lower.includes(p.toLowerCase()),
  )
}

/**
 * Loads the project and its data, and finds its tests; nothing runs yet. Throws the FileError of
 * a project or data file that cannot be loaded (as `serve --project` would stop).
 */
export async function openProjectTests(options: ProjectTestsOptions): Promise<ProjectTests> {
  let runner: ProjectRunner | undefined
  let code: CompiledProject | undefined
  let projectFolder: string | undefined
  const ds: Datastore = await loadDatastoreFiles({
    project: options.project,
    ...(options.data === undefined ? {} : { data: options.data }),
    ...(options.components === undefined ? {} : { components: options.components }),
    ...(options.onNote === undefined ? {} : { onNote: options.onNote }),
    onProject: (p) => {
      code = p.code
      projectFolder = p.files.project
    },
    onProjectRunner: (r) => (runner = r),
  })
  if (runner === undefined || code === undefined || projectFolder === undefined)
    throw new FileError(options.project, 'holds no 4D code to test')
  const root = dirname(projectFolder)
  const configFile = join(root, TESTS_CONFIG)
  const config = existsSync(configFile) ? await readTestsConfig(configFile) : {}
  const conventions: TestConventions = { ...config, ...options.conventions }
  const foldersFile = join(projectFolder, 'Sources', 'folders.json')
  // 4D writes it with a BOM at times: read as the other JSON files (json-file.ts).
  const folders = existsSync(foldersFile) ? await readJsonFile(foldersFile, 'folders') : undefined
  const members = testFolderMembers(folders, conventions.folders)
  const patterns = options.patterns ?? []
  const suites = projectTests(code, conventions, members)
    .map((s) => ({ ...s, tests: s.tests.filter((t) => selected(t.id, patterns)) }))
    .filter((s) => s.tests.length > 0)
  const budgetMs = options.budgetMs ?? config.budgetMs ?? TEST_BUDGET_MS
  const texts = new Map<string, string[]>()
  for (const unit of [...code.classes, ...code.methods])
    texts.set(unit.file, unit.text.split(/\r\n?|\n/))
  const loaded = ds.snapshot()
  const theRunner = runner
  const tests: ProjectTests = {
    suites,
    count: suites.reduce((n, s) => n + s.tests.length, 0),
    root: projectFolder,
    code,
    sourceLine: (file, line) => texts.get(file)?.[line - 1],
    suite(suite) {
      let run: SuiteRun | undefined
      let atStart = loaded
      const reset = (to: typeof loaded): void => {
        ds.restore(to)
        ds.sessions.closeAll?.()
      }
      return {
        start() {
          // From the data as loaded, in a running state of its own.
          reset(loaded)
          atStart = loaded
          theRunner.forget(ds)
          run = new SuiteRun(theRunner.process(ds, budgetMs), suite, {
            budgetMs,
            clock: ds.clock,
            afterSetup: () => (atStart = ds.snapshot()),
            beforeTest: () => reset(atStart),
          })
          run.start()
        },
        run(test) {
          if (run === undefined) throw new TypeError('ProjectTests.suite: run before start')
          return run.run(test)
        },
        end() {
          const down = run?.end()
          run = undefined
          reset(loaded)
          return down
        },
      }
    },
    run(told) {
      return suites.flatMap((s) => runSteps(tests.suite(s), s.tests, told))
    },
  }
  return tests
}
