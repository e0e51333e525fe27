/**
 * @module The progress lines of a long data load, for the command line: nothing for a load that
 * ends within a second (most fixtures), then one line a second with the rows read, the rate and
 * the time left, one when the rows are stored and indexed, and the total at the end.
 *
 *     Loading data.json: 98,304 of 200,000 rows (120,000 rows/s, about 0.8 s left)
 *     Loading data.json: 45 of 90 MB read, 500,000 rows (480,000 rows/s, about 1.0 s left)
 *     Loading data.json: storing 200,000 rows and building their indexes
 *     Loaded data.json: 200,000 rows in 2.1 s (95,000 rows/s)
 */
import type { LoadProgress } from '@entistore/core'

export interface ProgressOptions {
  /** Where lines go (stderr in the CLI). */
  readonly write: (line: string) => void
  /** Milliseconds now; injectable so that tests make time pass. @default Date.now */
  readonly now?: () => number
  /** Quiet for loads that end before this many milliseconds. @default 1000 */
  readonly after?: number
}

// Commas by hand: an Intl.NumberFormat made when the module loads costs the CLI's start-up 12 ms.
const count = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`

/**
 * A reporter for the load of `file`, started now (before the file is read: reading and parsing
 * count in the time shown). Its `onProgress` is what `ds.loadData(data, { onProgress })` calls.
 */
export interface LoadProgressReporter {
  /** What a load calls with its rows' progress, its commit and its end. */
  readonly onProgress: (p: LoadProgress) => void
  /** What a load read as a stream calls after each chunk: bytes read of the file's size, rows so far. */
  readonly onBytes: (read: number, size: number, rows: number) => void
}

export function loadProgress(file: string, options: ProgressOptions): LoadProgressReporter {
  const now = options.now ?? Date.now
  const after = options.after ?? 1000
  const start = now()
  let lastLine = -Infinity
  let spoke = false
  const say = (line: string, at: number): void => {
    spoke = true
    lastLine = at
    options.write(line)
  }
  return {
    onBytes(read, size, rows) {
      const at = now()
      const elapsed = at - start
      if (elapsed < after || at - lastLine < 1000) return
      const rate = (rows * 1000) / elapsed
      const left = read > 0 ? ((size - read) * elapsed) / read : 0
      say(
        `Loading ${file}: ${count(read / 1e6)} of ${count(size / 1e6)} MB read, ${count(rows)} rows (${count(rate)} rows/s, about ${seconds(left)} left)`,
        at,
      )
    },
    onProgress(p) {
      const at = now()
      const elapsed = at - start
      const rate = elapsed > 0 ? (p.rows * 1000) / elapsed : 0
      switch (p.phase) {
        case 'rows': {
          if (elapsed < after || at - lastLine < 1000) return
          const left = rate > 0 ? ((p.total - p.rows) * 1000) / rate : 0
          say(
            `Loading ${file}: ${count(p.rows)} of ${count(p.total)} rows (${count(rate)} rows/s, about ${seconds(left)} left)`,
            at,
          )
          return
        }
        case 'commit':
          if (elapsed >= after)
            say(`Loading ${file}: storing ${count(p.rows)} rows and building their indexes`, at)
          return
        case 'done':
          if (spoke || elapsed >= after)
            say(
              `Loaded ${file}: ${count(p.rows)} rows in ${seconds(elapsed)} (${count(rate)} rows/s)`,
              at,
            )
      }
    },
  }
}
