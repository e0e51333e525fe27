import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { durationTable } from './test-durations.ts'
import { DURATIONS_FILE, longestFirst } from './test-order.ts'

const file = (key: string, ms: number | undefined, failed = false) => ({ key, ms, failed })

describe('longestFirst', () => {
  it('starts the longest files first, whatever their project, and a short unknown one late', () => {
    const order = longestFirst([
      file('core:a.test.ts', 600),
      file('bench:smoke.test.ts', 30_000),
      file('rest:new.test.ts', undefined),
      file('entistore:faults.test.ts', 64_000),
      file('core:b.test.ts', 20),
    ])
    expect(order.map((f) => f.key)).toEqual([
      'entistore:faults.test.ts',
      'bench:smoke.test.ts',
      'core:a.test.ts',
      'rest:new.test.ts',
      'core:b.test.ts',
    ])
  })

  it('puts a file that failed last time first, and orders equal ones by key', () => {
    const order = longestFirst([
      file('b', 100),
      file('a', 100),
      file('slow', 9_000),
      file('failed', 10, true),
    ])
    expect(order.map((f) => f.key)).toEqual(['failed', 'slow', 'a', 'b'])
  })
})

describe('durationTable', () => {
  it('keeps the files of half a second or more, in tenths of a second, sorted by key', () => {
    const table = durationTable([
      ['z:slow.test.ts', { duration: 1234.5 }],
      ['a:quick.test.ts', { duration: 12 }],
      ['m:half.test.ts', { duration: 500 }],
    ])
    expect(Object.entries(table)).toEqual([
      ['m:half.test.ts', 500],
      ['z:slow.test.ts', 1200],
    ])
  })

  it('is what the committed table holds: keys of a project and a path, whole milliseconds', () => {
    const table = JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>
    for (const [key, ms] of Object.entries(table)) {
      expect(key).toMatch(/^[\w-]+:[\w./-]+\.test\.ts$/)
      expect(ms).toBeGreaterThanOrEqual(500)
    }
  })
})
