/**
 * The two pages a newcomer reads to find their way stay short (issue 67): the benchmarks' page is
 * today's tables (history lives in git and the changelogs), the architecture page a map whose
 * mechanisms each have a page of their own under docs/architecture/.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const root = new URL('../', import.meta.url)
const lines = (path: string): number => readFileSync(new URL(path, root), 'utf8').split('\n').length

/** A page and the most lines it may have. */
const BOUNDS: readonly (readonly [string, number])[] = [
  ['docs/benchmarks.md', 400],
  ['docs/architecture.md', 250],
]

describe('the pages a newcomer reads first stay short', () => {
  for (const [page, most] of BOUNDS)
    it(`${page}: at most ${most} lines`, () => expect(lines(page)).toBeLessThanOrEqual(most))
})
