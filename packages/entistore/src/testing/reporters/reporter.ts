/**
 * @module What `entistore test` tells as tests run (issue 80): a reporter is told the run's start,
 * each result as it ends, and the summary; the human one writes to the terminal, the others (JUnit
 * XML, TAP, GitHub Actions annotations) to a file or stdout for a CI.
 */
import type { TestFailure, TestResult, TestSuite } from '@entistore/4d'

/** The reporters `entistore test --reporter` names. */
export const REPORTERS = ['human', 'junit', 'tap', 'github'] as const
export type ReporterName = (typeof REPORTERS)[number]

/** A reporter as chosen: its name, and the file it writes (none: stdout). */
export interface ReporterChoice {
  readonly name: ReporterName
  readonly file?: string
}

/** The run as it starts. */
export interface RunStart {
  /** The project folder as given. */
  readonly project: string
  readonly suites: readonly TestSuite[]
  readonly count: number
  /** The time the project and its data took to load, in milliseconds. */
  readonly loadMs: number
}

/** The counts of a run. */
export interface RunSummary {
  readonly passed: number
  readonly failed: number
  readonly errors: number
  readonly timedOut: number
  /** The tests' own time, in milliseconds. */
  readonly ms: number
}

/** Where a reporter writes: lines (a file's, or stdout's). */
export type Lines = (line: string) => void

export interface TestReporter {
  start(run: RunStart): void
  result(result: TestResult): void
  end(summary: RunSummary, results: readonly TestResult[]): void
}

/** A project's file as a reporter names it: relative to where the command runs, as CIs expect. */
export type NameFile = (file: string) => string

/** The 4D source line of a file (1-based), when the project holds it. */
export type SourceLine = (file: string, line: number) => string | undefined

export function summarize(results: readonly TestResult[]): RunSummary {
  let passed = 0
  let failed = 0
  let errors = 0
  let timedOut = 0
  let ms = 0
  for (const r of results) {
    ms += r.ms
    if (r.status === 'passed') passed++
    else if (r.status === 'failed') failed++
    else if (r.status === 'error') errors++
    else timedOut++
  }
  return { passed, failed, errors, timedOut, ms }
}

/** Whether a run failed: any test that did not pass. */
export const failedRun = (s: RunSummary): boolean => s.failed + s.errors + s.timedOut > 0

/** `failed`, `error`, `timed out`: a status as a person reads it. */
export const STATUS_WORDS: Readonly<Record<TestResult['status'], string>> = {
  passed: 'passed',
  failed: 'failed',
  error: 'error',
  timedOut: 'timed out',
}

/**
 * Where a failure happened: its own file and line, else its test's file, and the test's line
 * only then (a failure in another file with no line of its own has none).
 */
export function failurePlace(r: TestResult, f: TestFailure): { file: string; line?: number } {
  const line = f.line ?? (f.file === undefined ? r.test.line : undefined)
  return { file: f.file ?? r.test.file, ...(line === undefined ? {} : { line }) }
}

/** A failure's lines after its message: the framework's other assertions, what an ASSERT compared. */
export const failureDetails = (f: TestFailure): string[] => [
  ...(f.assertions?.slice(1) ?? []),
  ...(f.compared === undefined ? [] : [`compared: ${f.compared}`]),
]
