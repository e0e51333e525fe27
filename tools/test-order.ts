/**
 * @module The order the test files start in: the longest first, over every project at once.
 *
 * Vitest's own order runs the projects one after another and, on a clean clone (no cache of the
 * last run), the larger files of each first: the cluster's faults (a minute, mostly waiting on
 * processes it kills) or the bench's smoke runs could start when the other workers had little
 * left, and the run ended with one worker busy and two idle. Started first, the long files run
 * beside the many short ones, which fill the gaps (the classic longest-processing-time rule).
 *
 * A file's duration comes from this machine's last run (vitest's cache, which also puts a file
 * that failed there first), else from tools/test-durations.json (`npm run test:durations`
 * rewrites it from the cache), else it is taken as short.
 */
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** The committed table: `project:path from the root` → milliseconds, the files of 0.5 s or more. */
export const DURATIONS_FILE = new URL('./test-durations.json', import.meta.url)

/** What a file's place is decided by. */
export interface FileWeight {
  readonly key: string
  /** Failed in this machine's last run: goes first, whatever its length. */
  readonly failed: boolean
  /** Milliseconds, or undefined when no run is known. */
  readonly ms: number | undefined
}

/** A file no run timed: short, as most are (the long ones are in the table). */
const UNKNOWN_MS = 100

/**
 * The order: failed first, then by duration, longest first; equal ones by key, so that two runs
 * of the same tree start in the same order.
 */
export function longestFirst<T extends FileWeight>(files: readonly T[]): T[] {
  const ms = (f: T): number => f.ms ?? UNKNOWN_MS
  return [...files].sort(
    (a, b) =>
      Number(b.failed) - Number(a.failed) ||
      ms(b) - ms(a) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  )
}

function readTable(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>
  } catch {
    return {}
  }
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const table = readTable()
    const weighed = files.map((spec) => {
      const key = `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`
      const last = this.ctx.cache.getFileTestResults(key)
      return { spec, key, failed: last?.failed ?? false, ms: last?.duration ?? table[key] }
    })
    return longestFirst(weighed).map((w) => w.spec)
  }
}
