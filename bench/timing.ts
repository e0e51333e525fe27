/**
 * Timing helpers: warm-up, calibration, interleaved repetitions, medians.
 *
 * A case is a function doing one "call" of work (for lookups, a whole batch of keys) and returning
 * a check number (rows found, hits…), which is compared across cases and also fed to a sink so the
 * optimizer cannot drop the work. Fast calls are repeated `inner` times per sample so that a sample
 * lasts at least `minSampleMs`; samples of the cases of one group are interleaved (plain, engine,
 * peers, plain, engine, peers…) so that a drift of the machine hits every case alike.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** One implementation of one operation. */
export interface Case {
  /** Who runs it: the plain baseline, other plain variants, the engine, a peer library. */
  readonly kind: 'baseline' | 'plain' | 'entistore' | 'peer'
  /** Short label shown in the table. */
  readonly impl: string
  /** One call of work; returns a check value (rows found, hits…). */
  readonly run: () => number
  /** Untimed set-up before each call (fresh key strings, fresh copies of the input). */
  readonly prepare?: () => void
  /** Logical operations per call, for the per-op column (10,000 for a batch of 10k lookups). */
  readonly opsPerCall?: number
  /** Multiply the measured time by this (a scan-per-lookup peer runs 20 lookups standing for 10,000). */
  readonly extrapolate?: number
  /** The check value to expect instead of the baseline's (extrapolated cases find fewer rows). */
  readonly expectCheck?: number
  /** Whether this case is held to the group's target (the engine rows). */
  readonly targeted?: boolean
  /** A short remark printed in the table. */
  readonly note?: string
}

export interface Timed {
  readonly case: Case
  /** Milliseconds per call (extrapolated where the case says so), one per repetition. */
  readonly samples: number[]
  readonly median: number
  readonly check: number
  readonly inner: number
  /** Set when the case threw (it is then left out of the samples). */
  readonly error?: string
  /** Set when one call took over `slowCallMs`: that cold call is the only sample. */
  readonly slow?: boolean
}

export interface TimingOptions {
  /** Untimed calls before calibration. */
  readonly warmup: number
  /** Timed samples per case. */
  readonly reps: number
  /** Each sample repeats the call until it lasts at least this long. */
  readonly minSampleMs: number
  /**
   * A case whose first call takes longer than this is timed by that call alone: no more warm-up,
   * calibration or samples. Slow cases are far off their goal anyway, and repeating them would
   * make the run unbounded (a 100-pattern text scan took 57 s a call before issue 7).
   */
  readonly slowCallMs?: number
}

let sink = 0
/** Keeps results alive so the optimizer cannot remove the work. Print it once at the end. */
export const sinkValue = (): number => sink

const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** Times every case of a group, interleaving their samples. */
export function timeCases(cases: readonly Case[], options: TimingOptions): Timed[] {
  const slowMs = options.slowCallMs ?? Infinity
  const state = cases.map((c) => {
    let check = 0
    try {
      // Warm-up calls, then one calibration call; each is timed, to catch a slow case early.
      let once = 0
      for (let i = 0; i <= Math.max(0, options.warmup); i++) {
        c.prepare?.()
        const t0 = nowMs()
        check = c.run()
        once = Math.max(nowMs() - t0, 1e-3)
        if (once > slowMs)
          return { c, check, inner: 1, samples: [once * (c.extrapolate ?? 1)], slow: true }
      }
      // Calibration: how many calls make a sample of minSampleMs.
      const inner = Math.max(1, Math.min(10_000, Math.ceil(options.minSampleMs / once)))
      return { c, check, inner, samples: [] as number[] }
    } catch (e) {
      const error = e instanceof Error ? `${e.name}: ${e.message}` : String(e)
      return { c, check: NaN, inner: 0, samples: [] as number[], error }
    }
  })
  for (let r = 0; r < options.reps; r++) {
    for (const s of state) {
      if ('error' in s || 'slow' in s) continue
      let acc = 0
      let ms: number
      const prepare = s.c.prepare
      if (prepare) {
        // Set-up outside the clock: time each call on its own.
        let total = 0
        for (let i = 0; i < s.inner; i++) {
          prepare()
          const t0 = nowMs()
          acc += s.c.run()
          total += nowMs() - t0
        }
        ms = total / s.inner
      } else {
        const t0 = nowMs()
        for (let i = 0; i < s.inner; i++) acc += s.c.run()
        ms = (nowMs() - t0) / s.inner
      }
      sink = (sink + acc) | 0
      s.samples.push(ms * (s.c.extrapolate ?? 1))
    }
  }
  return state.map((s) => ({
    case: s.c,
    samples: s.samples,
    median: median(s.samples),
    check: s.check,
    inner: s.inner,
    ...('error' in s ? { error: s.error } : {}),
    ...('slow' in s ? { slow: true } : {}),
  }))
}

/** Times one function `reps` times (no interleaving, no inner loop): for slow builds. */
export function timeOnce<T>(fn: () => T): { ms: number; value: T } {
  const t0 = nowMs()
  const value = fn()
  return { ms: nowMs() - t0, value }
}

// A full garbage collection, for heap measurements. `--expose-gc` is not required: the flag is set
// at run time and the function fetched from a fresh context.
let gcFn: (() => void) | undefined
export function fullGc(): void {
  if (!gcFn) {
    setFlagsFromString('--expose-gc')
    gcFn = runInNewContext('gc') as () => void
  }
  gcFn()
  gcFn()
}

/** Used JS heap in MB after a full GC. */
export function heapMb(): number {
  fullGc()
  return process.memoryUsage().heapUsed / 1048576
}
