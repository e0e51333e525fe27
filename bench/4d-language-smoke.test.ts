/**
 * @module The 4d-language suite cannot rot (issue 62): every group at small sizes, each case run
 * through the bench's timing with one sample, and the compile measure once. It checks that each
 * 4D case gives the same check value as its TypeScript baseline (the same logic), that every
 * group has its goal and a targeted 4D row, and that the compile goal line is there. The figures
 * themselves are not checked: speed goals live in the bench, never in tests.
 */
import { describe, expect, it } from 'vitest'
import { loadFourD } from './4d-code.ts'
import { timeCases } from './timing.ts'
import {
  compileReport,
  FOUR_D_OPS,
  fourDGroups,
  measureCompile,
} from './suites/4d-language.bench.ts'

// The suite measures the package's dist, built first as run.ts builds it.
const { fd } = await loadFourD()
const groups = fourDGroups(
  fd,
  { loop: 10_000, elements: 1000, employees: 200, saves: 20, compileReps: 1, restrictRows: 1000 },
  () => true,
)

describe('npm run bench -- --suite=4d-language', () => {
  it('has every operation --only names, each with a goal and a targeted 4D row', () => {
    expect(groups.map((g) => g.id)).toEqual(FOUR_D_OPS.filter((x) => x !== '4d-compile'))
    for (const g of groups) {
      expect(g.target, g.id).toBeDefined()
      expect(g.cases[0]!.kind, g.id).toBe('baseline')
      expect(g.cases.filter((c) => c.targeted).length, g.id).toBe(1)
    }
  })

  it('gives the same result in 4D as in TypeScript, for every case', () => {
    for (const g of groups) {
      const timed = timeCases(g.cases, { warmup: 0, reps: 1, minSampleMs: 0 })
      const base = timed[0]!
      for (const t of timed) {
        expect(t.error, `${g.id} ${t.case.impl}`).toBeUndefined()
        expect(t.check, `${g.id} ${t.case.impl}`).toBe(base.check)
      }
      expect(base.check, g.id).not.toBe(0)
    }
  })

  it('parses and compiles every car-rental class, and gives the goal line', () => {
    const m = measureCompile(fd, 1)
    expect(m.files).toBeGreaterThanOrEqual(7)
    expect(m.functions).toBeGreaterThan(0)
    const { goal } = compileReport(m)
    expect(goal[1]).toBe('4d-compile')
    expect(goal[5]).toMatch(/^(PASS|MISS)$/)
  })
})
