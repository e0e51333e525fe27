/**
 * @module `entistore test`'s run: the project's tests loaded (testing/project-tests.ts), run one
 * after the other, each result told to the reporters as it ends; the files they write written at
 * the end. Exit code 1 when a test did not pass, or when no test was found (a CI that finds none
 * has most likely been pointed at the wrong folder).
 */
import { writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { openProjectTests, TESTS_CONFIG } from '../testing/project-tests.js'
import { githubReporter } from '../testing/reporters/github.js'
import { humanReporter } from '../testing/reporters/human.js'
import { junitReporter } from '../testing/reporters/junit.js'
import {
  failedRun,
  summarize,
  type Lines,
  type ReporterChoice,
  type NameFile,
  type SourceLine,
  type TestReporter,
} from '../testing/reporters/reporter.js'
import { tapReporter } from '../testing/reporters/tap.js'
import type { CliIo } from './cli-io.js'

export interface TestCommandOptions {
  readonly project: string
  readonly data?: string
  readonly components: readonly string[]
  readonly patterns: readonly string[]
  readonly reporters: readonly ReporterChoice[]
  readonly budgetMs?: number
  /** Where to write the lcov of the 4D code the tests ran, if asked. */
  readonly coverage?: string
  /** Run again whenever the project's code, structure, data or test names change. */
  readonly watch?: boolean
}

function reporterOf(
  choice: ReporterChoice,
  write: Lines,
  name: NameFile,
  source: SourceLine,
): TestReporter {
  switch (choice.name) {
    case 'human':
      return humanReporter(write, name, source)
    case 'junit':
      return junitReporter(write, name)
    case 'tap':
      return tapReporter(write, name)
    case 'github':
      return githubReporter(write, name)
  }
}

/**
 * The files `--watch` watches: the structure file, roles.json, folders.json, the Classes and
 * Methods folders (each folder standing for the files in it: serve/watch.ts), the team's
 * entistore-tests.json, and the data.
 */
async function watchedFiles(options: TestCommandOptions): Promise<string[]> {
  const { projectFiles, watchedSources } = await import('../project/project-files.js')
  const root = dirname(projectFiles(options.project).project)
  return [
    ...watchedSources(options.project, undefined, ['folders.json']),
    join(root, TESTS_CONFIG),
    ...(options.data === undefined ? [] : [options.data]),
  ]
}

export async function runTestCommand(options: TestCommandOptions, io: CliIo): Promise<number> {
  if (options.watch !== true) return runOnce(options, io)
  const { whileWatching } = await import('./watch-loop.js')
  return whileWatching(
    {
      files: await watchedFiles(options),
      run: async (first) => {
        if (!first) io.out('')
        return runOnce(options, io)
      },
      ...(io.onWatchRun === undefined ? {} : { onRun: io.onWatchRun }),
      command: 'entistore test',
      watching: options.project,
    },
    io,
  )
}

/** One run of the tests, reported; its exit code. */
async function runOnce(options: TestCommandOptions, io: CliIo): Promise<number> {
  const started = performance.now()
  const tests = await openProjectTests({
    project: options.project,
    ...(options.data === undefined ? {} : { data: options.data }),
    components: options.components,
    patterns: options.patterns,
    ...(options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs }),
  })
  const loadMs = performance.now() - started
  if (tests.count === 0) {
    const asked = options.patterns.length === 0 ? '' : ` matching ${options.patterns.join(' ')}`
    io.err(
      `entistore test: no test${asked} in ${options.project} (test methods are named test_…, classes …Test: docs/ci.md)`,
    )
    return 1
  }
  // Files as the command line's folder names them: what a CI's annotations and reports expect.
  const name: NameFile = (file) => relative(process.cwd(), join(tests.root, file)) || file
  const toFile = new Map<string, string[]>()
  const reporters = options.reporters.map((choice) => {
    let write: Lines = io.out
    if (choice.file !== undefined) {
      const lines: string[] = []
      toFile.set(choice.file, lines)
      write = (line) => lines.push(line)
    }
    return reporterOf(choice, write, name, tests.sourceLine)
  })
  const recording =
    options.coverage === undefined
      ? undefined
      : await (await import('../testing/coverage.js')).recordCoverage()
  const start = { project: options.project, suites: tests.suites, count: tests.count, loadMs }
  for (const r of reporters) r.start(start)
  const results = tests.run((result) => {
    for (const r of reporters) r.result(result)
  })
  const summary = summarize(results)
  for (const r of reporters) r.end(summary, results)
  for (const [file, lines] of toFile) writeFileSync(file, `${lines.join('\n')}\n`)
  if (recording !== undefined) {
    const { coverageTotals, lcov } = await import('../testing/coverage.js')
    // The project's code, its tests left out: what the tests are meant to cover.
    const testFiles = new Set(tests.suites.flatMap((s) => s.tests.map((t) => t.file)))
    const files = await recording.take(tests.code, (file) => !testFiles.has(file))
    writeFileSync(options.coverage!, lcov(files, tests.root))
    const { found, hit } = coverageTotals(files)
    const percent = found === 0 ? 100 : Math.floor((1000 * hit) / found) / 10
    io.err(
      `Coverage: ${hit} of ${found} lines of 4D code run (${percent}%), in ${files.length} files: ${options.coverage}`,
    )
  }
  return failedRun(summary) ? 1 : 0
}
