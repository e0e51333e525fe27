import { describe, expect, it } from 'vitest'
import { loadProgress } from './load-progress.js'

/** A reporter on a clock the test moves. */
const setup = () => {
  let t = 1_000_000
  const lines: string[] = []
  const reporter = loadProgress('data.json', { write: (l) => lines.push(l), now: () => t })
  return { lines, reporter, advance: (ms: number) => (t += ms) }
}

describe('loadProgress', () => {
  it('says nothing of a load that ends within a second', () => {
    const { lines, reporter, advance } = setup()
    advance(300)
    reporter.onProgress({ phase: 'rows', rows: 16_384, total: 20_000 })
    advance(200)
    reporter.onProgress({ phase: 'commit', rows: 20_000, total: 20_000 })
    advance(100)
    reporter.onProgress({ phase: 'done', rows: 20_000, total: 20_000 })
    expect(lines).toEqual([])
  })

  it('after a second, a line a second with the rate and the time left, then the commit and the total', () => {
    const { lines, reporter, advance } = setup()
    advance(900)
    reporter.onProgress({ phase: 'rows', rows: 50_000, total: 200_000 })
    advance(300)
    reporter.onProgress({ phase: 'rows', rows: 60_000, total: 200_000 })
    advance(300)
    // Within a second of the last line: quiet.
    reporter.onProgress({ phase: 'rows', rows: 75_000, total: 200_000 })
    advance(1000)
    reporter.onProgress({ phase: 'rows', rows: 125_000, total: 200_000 })
    advance(500)
    reporter.onProgress({ phase: 'commit', rows: 200_000, total: 200_000 })
    advance(500)
    reporter.onProgress({ phase: 'done', rows: 200_000, total: 200_000 })
    expect(lines).toEqual([
      'Loading data.json: 60,000 of 200,000 rows (50,000 rows/s, about 2.8 s left)',
      'Loading data.json: 125,000 of 200,000 rows (50,000 rows/s, about 1.5 s left)',
      'Loading data.json: storing 200,000 rows and building their indexes',
      'Loaded data.json: 200,000 rows in 3.5 s (57,143 rows/s)',
    ])
  })

  it('gives the total of a load whose rows were quick but whose storing took past the second', () => {
    const { lines, reporter, advance } = setup()
    advance(800)
    reporter.onProgress({ phase: 'commit', rows: 100_000, total: 100_000 })
    advance(700)
    reporter.onProgress({ phase: 'done', rows: 100_000, total: 100_000 })
    expect(lines).toEqual(['Loaded data.json: 100,000 rows in 1.5 s (66,667 rows/s)'])
  })

  it('tells a load read as a stream by the bytes read, with the time left from their rate', () => {
    const { lines, reporter, advance } = setup()
    advance(500)
    reporter.onBytes(10_000_000, 90_000_000, 90_000)
    advance(1000)
    reporter.onBytes(30_000_000, 90_000_000, 270_000)
    advance(500)
    // Within a second of the last line: quiet.
    reporter.onBytes(40_000_000, 90_000_000, 360_000)
    advance(1500)
    reporter.onProgress({ phase: 'commit', rows: 810_000, total: 810_000 })
    reporter.onProgress({ phase: 'done', rows: 810_000, total: 810_000 })
    expect(lines).toEqual([
      'Loading data.json: 30 of 90 MB read, 270,000 rows (180,000 rows/s, about 3.0 s left)',
      'Loading data.json: storing 810,000 rows and building their indexes',
      'Loaded data.json: 810,000 rows in 3.5 s (231,429 rows/s)',
    ])
  })
})
