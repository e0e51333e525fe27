/**
 * @module The reporter a person reads: one line a test as it ends, a failure's place
 * (`file:line`), its message and its 4D line beneath, then the counts in one line.
 */
import type { TestResult } from '@entistore/4d'
import {
  failurePlace,
  STATUS_WORDS,
  type Lines,
  type NameFile,
  type RunStart,
  type RunSummary,
  type SourceLine,
  type TestReporter,
} from './reporter.js'

const ms = (n: number): string => `${Math.round(n)} ms`

export function humanReporter(out: Lines, name: NameFile, source: SourceLine): TestReporter {
  return {
    start(run: RunStart) {
      const suites = run.suites.length
      out(
        `entistore test: ${run.count} test${run.count === 1 ? '' : 's'} in ${suites} suite${suites === 1 ? '' : 's'} of ${run.project} (loaded in ${ms(run.loadMs)})`,
      )
    },
    result(r: TestResult) {
      const mark = r.status === 'passed' ? 'ok  ' : 'FAIL'
      const status = r.status === 'passed' ? '' : ` (${STATUS_WORDS[r.status]})`
      out(`${mark} ${r.test.id}${status} ${ms(r.ms)}`)
      const f = r.failure
      if (f === undefined) return
      const { file, line } = failurePlace(r, f)
      const place = line === undefined ? name(file) : `${name(file)}:${line}`
      out(`     ${place}: ${f.message}`)
      for (const a of f.assertions?.slice(1) ?? []) out(`     ${a}`)
      const text = line === undefined ? undefined : source(file, line)
      if (text !== undefined) out(`     ${String(line).padStart(5)} | ${text.trim()}`)
      if (f.compared !== undefined) out(`     compared: ${f.compared}`)
    },
    end(s: RunSummary) {
      const parts = [`${s.passed} passed`, `${s.failed} failed`]
      if (s.errors > 0) parts.push(`${s.errors} error${s.errors === 1 ? '' : 's'}`)
      if (s.timedOut > 0) parts.push(`${s.timedOut} timed out`)
      out(`Tests: ${parts.join(', ')} (${ms(s.ms)})`)
    },
  }
}
