/**
 * @module A vitest reporter that ends the run with one plain line, `Tests: N passed, N failed, N skipped`,
 * the line CI reads. Vitest's own summary (`Tests  7 passed (7)`) has another shape.
 *
 * With `ENTISTORE_TEST_DURATIONS=<file>` it also keeps each file's duration there, for the order
 * the next runs take (tools/slow-first.ts): the files this run ran are updated, the others kept.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import type { Reporter, TestModule } from 'vitest/node'
import { durationKey } from './slow-first.ts'

/** Below this a file's place in the order hardly matters: the file stays short. */
const KEPT_FROM_MS = 2000

function keepDurations(file: string, testModules: ReadonlyArray<TestModule>): void {
  let kept: Record<string, number> = {}
  try {
    kept = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    // A first run: nothing kept yet.
  }
  for (const mod of testModules) {
    const key = durationKey(mod.project.name, mod.project.config.root, mod.moduleId)
    const ms = Math.round(mod.diagnostic().duration / 100) * 100
    if (ms >= KEPT_FROM_MS) kept[key] = ms
    else delete kept[key]
  }
  const slowestFirst = Object.entries(kept).sort(([, a], [, b]) => b - a)
  writeFileSync(file, `${JSON.stringify(Object.fromEntries(slowestFirst), null, 2)}\n`)
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
  ): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const mod of testModules) {
      let failedHere = 0
      for (const test of mod.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failedHere++
        else skipped++
      }
      // A file that fails to load has no failed test of its own: count the file itself.
      if (failedHere === 0 && mod.state() === 'failed') failedHere = 1
      failed += failedHere
    }
    failed += unhandledErrors.length
    const durations = process.env['ENTISTORE_TEST_DURATIONS']
    if (durations) keepDurations(durations, testModules)
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`)
  }
}
