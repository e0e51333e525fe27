/**
 * @module TAP version 13 (testanything.org): `ok` or `not ok` a test as it ends, a failure's
 * message, place and status in its YAML block, then the plan: at the end, as TAP allows, since a
 * class's teardown that fails adds a result of its own to the tests counted at the start.
 */
import type { TestResult } from '@entistore/4d'
import {
  failurePlace,
  STATUS_WORDS,
  type Lines,
  type NameFile,
  type TestReporter,
} from './reporter.js'

/** A YAML scalar on one line: JSON's string is a YAML double-quoted scalar. */
const yaml = (s: string): string => JSON.stringify(s)

export function tapReporter(write: Lines, name: NameFile): TestReporter {
  let n = 0
  return {
    start() {
      write('TAP version 13')
    },
    result(r: TestResult) {
      n++
      // A `#` in a description starts a directive: escaped, as TAP says.
      const description = r.test.id.replace(/\\/g, '\\\\').replace(/#/g, '\\#')
      write(`${r.status === 'passed' ? 'ok' : 'not ok'} ${n} - ${description}`)
      const f = r.failure
      if (f === undefined) return
      const place = failurePlace(r, f)
      const file = name(place.file)
      const line = place.line
      write('  ---')
      write(`  message: ${yaml(f.message)}`)
      write(`  severity: ${r.status === 'failed' ? 'fail' : 'error'}`)
      write(`  status: ${yaml(STATUS_WORDS[r.status])}`)
      write(`  at: ${yaml(line === undefined ? file : `${file}:${line}`)}`)
      if (f.compared !== undefined) write(`  compared: ${yaml(f.compared)}`)
      if (f.assertions !== undefined && f.assertions.length > 1) {
        write('  assertions:')
        for (const a of f.assertions) write(`    - ${yaml(a)}`)
      }
      write('  ...')
    },
    end() {
      write(`1..${n}`)
    },
  }
}
