/**
 * @module JUnit XML, as CIs read it (GitHub Actions' test reporters, GitLab, Jenkins): one
 * `<testsuite>` a test class (the project's test methods together as `methods`), one `<testcase>`
 * a test with its file and line; an `ASSERT` that failed is a `<failure>`, any other error (a
 * budget run past included) an `<error>`. Written whole at the end of the run.
 */
import type { TestResult, TestSuite } from '@entistore/4d'
import {
  failureDetails,
  type Lines,
  type NameFile,
  type RunStart,
  type RunSummary,
  type TestReporter,
} from './reporter.js'

const escape = (s: string): string =>
  s
    // XML 1.0 allows neither these control characters nor a lone surrogate.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')

const seconds = (ms: number): string => (ms / 1000).toFixed(3)

/** The suite name of a class's tests, or of the project's test methods. */
export const suiteName = (s: Pick<TestSuite, 'className'>): string => s.className ?? 'methods'

export function junitReporter(write: Lines, name: NameFile): TestReporter {
  let suites: readonly TestSuite[] = []
  let project = ''
  return {
    start(run: RunStart) {
      suites = run.suites
      project = run.project
    },
    result() {},
    end(s: RunSummary, results: readonly TestResult[]) {
      const lines = ['<?xml version="1.0" encoding="UTF-8"?>']
      lines.push(
        `<testsuites name="${escape(`entistore test ${project}`)}" tests="${results.length}" failures="${s.failed}" errors="${s.errors + s.timedOut}" time="${seconds(s.ms)}">`,
      )
      // Results in suite order; a suite's results are those whose test it holds (a failed
      // teardown's result is its class's).
      for (const suite of suites) {
        const suiteName_ = suiteName(suite)
        const mine = results.filter((r) =>
          suite.className === undefined
            ? !r.test.id.includes('.')
            : r.test.id.startsWith(`${suite.className}.`),
        )
        const failures = mine.filter((r) => r.status === 'failed').length
        const errors = mine.filter((r) => r.status === 'error' || r.status === 'timedOut').length
        const time = mine.reduce((n, r) => n + r.ms, 0)
        lines.push(
          `  <testsuite name="${escape(suiteName_)}" tests="${mine.length}" failures="${failures}" errors="${errors}" skipped="0" time="${seconds(time)}"${suite.file === undefined ? '' : ` file="${escape(name(suite.file))}"`}>`,
        )
        for (const r of mine) {
          const open = `    <testcase classname="${escape(suiteName_)}" name="${escape(r.test.name)}" file="${escape(name(r.test.file))}" line="${r.test.line}" time="${seconds(r.ms)}"`
          const f = r.failure
          if (r.status === 'passed' || f === undefined) {
            lines.push(`${open}/>`)
            continue
          }
          const tag = r.status === 'failed' ? 'failure' : 'error'
          const type =
            r.status === 'timedOut'
              ? 'timeout'
              : f.errCode === undefined
                ? 'error'
                : String(f.errCode)
          const where =
            f.file === undefined
              ? ''
              : `${name(f.file)}${f.line === undefined ? '' : `:${f.line}`}: `
          const body = [`${where}${f.message}`, ...failureDetails(f)].join('\n')
          lines.push(`${open}>`)
          lines.push(
            `      <${tag} message="${escape(f.message)}" type="${escape(type)}">${escape(body)}</${tag}>`,
          )
          lines.push('    </testcase>')
        }
        lines.push('  </testsuite>')
      }
      lines.push('</testsuites>')
      for (const l of lines) write(l)
    },
  }
}
