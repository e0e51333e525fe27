/**
 * @module The order vitest runs the test files in: within each project, the slowest first.
 *
 * Vitest orders a project's files by their last durations from its cache, which a clean clone
 * (CI) does not have: it then runs them in the order it found them, and a file of half a minute
 * could start last, with the other workers idle behind it (the REST package's oracle property
 * test, 34 s, was one of the last files of a CI run). The durations a run measured are kept in
 * `test-durations.json` (`ENTISTORE_TEST_DURATIONS=tools/test-durations.json npm test` writes
 * them: tools/summary-reporter.ts); a file it does not name is taken as quick.
 *
 * The projects keep vitest's order, one after another: a worker is reused only by the next file
 * of its own project (`isolate: false`), so mixing projects would start a worker, and import a
 * package, once more a file.
 */
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** Where the durations are kept: `project:path from the project's root` → milliseconds. */
export const DURATIONS_FILE = new URL('./test-durations.json', import.meta.url)

/** The key of a test file in the durations file. */
export const durationKey = (project: string, root: string, moduleId: string): string =>
  `${project}:${relative(root, moduleId).split('\\').join('/')}`

function readDurations(): ReadonlyMap<string, number> {
  try {
    return new Map(Object.entries(JSON.parse(readFileSync(DURATIONS_FILE, 'utf8'))))
  } catch {
    // No file, or one cut short by a failed write: vitest's own order, which is correct too.
    return new Map()
  }
}

export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const durations = readDurations()
    const ms = (spec: TestSpecification) =>
      durations.get(durationKey(spec.project.name, spec.project.config.root, spec.moduleId)) ?? 0
    const position = new Map(sorted.map((spec, i) => [spec, i]))
    // Vitest's own order gives each project's place (its first file's); inside it, slowest first.
    const projectAt = new Map<string, number>()
    for (const [spec, i] of position)
      if (!projectAt.has(spec.project.name)) projectAt.set(spec.project.name, i)
    return sorted.sort(
      (a, b) =>
        projectAt.get(a.project.name)! - projectAt.get(b.project.name)! ||
        ms(b) - ms(a) ||
        position.get(a)! - position.get(b)!,
    )
  }
}
