/**
 * @module A vitest reporter that ends the run with one plain line, `Tests: N passed, N failed, N skipped`,
 * the line CI reads. Vitest's own summary (`Tests  7 passed (7)`) has another shape.
 */
import type { Reporter, TestModule } from 'vitest/node'

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
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`)
  }
}
