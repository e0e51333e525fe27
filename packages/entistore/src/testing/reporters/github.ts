/**
 * @module GitHub Actions workflow commands (docs.github.com, "Workflow commands for GitHub
 * Actions"): an `::error` annotation a test that did not pass, at its file and line, which the
 * pull request shows on the line; and a notice with the counts. Properties and messages are
 * escaped as the runner reads them (`%`, CR and LF; in properties also `:` and `,`).
 */
import type { TestResult } from '@entistore/4d'
import {
  failureDetails,
  failurePlace,
  STATUS_WORDS,
  type Lines,
  type NameFile,
  type RunSummary,
  type TestReporter,
} from './reporter.js'

const data = (s: string): string =>
  s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
const property = (s: string): string => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C')

/** One annotation: `level` (error, warning, notice) at `file` and `line`, titled. */
export function annotation(
  level: 'error' | 'warning' | 'notice',
  message: string,
  place: { file?: string; line?: number; column?: number; title?: string },
): string {
  const props = [
    place.file === undefined ? undefined : `file=${property(place.file)}`,
    place.line === undefined ? undefined : `line=${place.line}`,
    place.column === undefined ? undefined : `col=${place.column}`,
    place.title === undefined ? undefined : `title=${property(place.title)}`,
  ].filter((p) => p !== undefined)
  return `::${level}${props.length === 0 ? '' : ` ${props.join(',')}`}::${data(message)}`
}

export function githubReporter(write: Lines, name: NameFile): TestReporter {
  return {
    start() {},
    result(r: TestResult) {
      const f = r.failure
      if (r.status === 'passed' || f === undefined) return
      const { file, line } = failurePlace(r, f)
      const message = [f.message, ...failureDetails(f)].join('\n')
      write(
        annotation('error', message, {
          file: name(file),
          ...(line === undefined ? {} : { line }),
          title: `${r.test.id} ${STATUS_WORDS[r.status]}`,
        }),
      )
    },
    end(s: RunSummary) {
      const bad = s.failed + s.errors + s.timedOut
      write(
        annotation(
          bad > 0 ? 'error' : 'notice',
          `entistore test: ${s.passed} passed, ${bad} did not pass`,
          {
            title: 'entistore test',
          },
        ),
      )
    },
  }
}
