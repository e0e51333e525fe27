/**
 * @module `entistore test --project <folder> [pattern…]`: a 4D project's own tests run headless
 * (issue 80), as a CI runs them on a pull request with no 4D. The reading of its flags;
 * test-project.ts runs it.
 */
import { REPORTERS, type ReporterChoice, type ReporterName } from '../testing/reporters/reporter.js'
import { integerIn, read, UsageError, type Command } from './command.js'

const HELP = `Usage:
  entistore test --project <folder> [--data <data.json>|<csv folder>] [--components <folder>]
                 [--reporter human|junit|tap|github[=<file>]] [--timeout <ms>] [--coverage <lcov file>]
                 [--watch] [pattern...]

Runs the project's own tests in 4D, headless, against its data as serve --project loads it: the
project methods named test_..., Test... or testX... (and those of a Tests folder of the Explorer),
and the test_... functions of the classes whose names end with Test or Tests, with their setup,
beforeEach, afterEach and teardown. The data is loaded once and restored before each test. One
line a test, the failing 4D line under each failure, then the counts. Exits 1 when a test failed,
raised an error or ran past its budget (or when none was found), 0 otherwise (docs/ci.md).

A pattern keeps the tests whose name holds it (InvoiceTest, test_totals), or matches it with 4D's
@ wildcard (Invoice@). entistore-tests.json beside the Project folder may name tests otherwise.

Options:
  --project, -p  the 4D project folder (its Project folder, or the one that holds it)
  --data, -d     its data: a data file, or a folder of CSV files (as serve's)
  --components   a folder of downloaded 4D components for what dependencies.json names
  --reporter     human (the default), junit, tap or github (Actions annotations); name=file writes
                 to the file (--reporter junit=results.xml); may be given more than once
  --format       another name of --reporter, as check's (--format github)
  --timeout      the time a test may run, in milliseconds (default 5000)
  --coverage     write the lines of the project's 4D code the tests ran, as lcov, to this file
  --watch, -w    run the tests again whenever the code, the structure or the data change
  --help,  -h    this text

Examples:
  entistore test --project examples/car-rental --data examples/car-rental/csv
  entistore test -p MyApp --reporter human --reporter junit=test-results.xml --reporter github
  entistore test -p MyApp InvoiceTest
  entistore test -p MyApp --coverage coverage/lcov.info`

/** Reads one `--reporter` value. */
export function reporterChoice(text: string): ReporterChoice {
  const at = text.indexOf('=')
  const name = at < 0 ? text : text.slice(0, at)
  const file = at < 0 ? undefined : text.slice(at + 1)
  if (!(REPORTERS as readonly string[]).includes(name))
    throw new UsageError(`--reporter must be one of ${REPORTERS.join(', ')}, got "${name}"`)
  if (file === '') throw new UsageError(`--reporter ${name}= needs a file after the =`)
  return { name: name as ReporterName, ...(file === undefined ? {} : { file }) }
}

export const testCommand: Command = {
  name: 'test',
  summary: "run a 4D project's own tests headless: one line a test, JUnit, TAP, annotations",
  help: HELP,
  options: {
    project: { type: 'string', short: 'p' },
    data: { type: 'string', short: 'd' },
    components: { type: 'string', multiple: true },
    reporter: { type: 'string', multiple: true },
    format: { type: 'string', multiple: true },
    timeout: { type: 'string' },
    coverage: { type: 'string' },
    watch: { type: 'boolean', short: 'w' },
  },
  prepare(values, positionals) {
    if (values.project === undefined) throw new UsageError('--project <folder> is required')
    const asked = [
      ...((values.reporter as unknown as string[] | undefined) ?? []),
      ...((values.format as unknown as string[] | undefined) ?? []),
    ]
    const reporters = (asked.length === 0 ? ['human'] : asked).map(reporterChoice)
    const files = reporters.flatMap((r) => (r.file === undefined ? [] : [r.file]))
    if (new Set(files).size < files.length)
      throw new UsageError('--reporter: two reporters cannot write the same file')
    const budgetMs = read(
      values.timeout,
      integerIn(1, 2 ** 31 - 1),
      '--timeout must be a whole number of milliseconds, at least 1',
    )
    // V8 counts the code compiled while it records: a run after the first, its code unchanged
    // and compiled already, would count nothing.
    if (values.watch === true && values.coverage !== undefined)
      throw new UsageError('--coverage and --watch cannot go together')
    const options = {
      project: values.project as string,
      watch: values.watch === true,
      ...(values.data === undefined ? {} : { data: values.data as string }),
      components: (values.components as unknown as string[] | undefined) ?? [],
      patterns: [...positionals],
      reporters,
      ...(budgetMs === undefined ? {} : { budgetMs }),
      ...(values.coverage === undefined ? {} : { coverage: values.coverage as string }),
    }
    return async (io) => {
      const { runTestCommand } = await import('./test-project.js')
      return runTestCommand(options, io)
    }
  },
}
