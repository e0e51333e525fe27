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
  /**
   * This case's own `slowCallMs` (TimingOptions): a baseline that is the mean of several queries
   * is sampled as the cases it stands for are, not timed once, cold, because it makes ten calls.
   */
  readonly slowCallMs?: number
}

export interface Timed<C = Case> {
  readonly case: C
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
  /**
   * Untimed calls go on until they have also lasted this long: a function is optimized after
   * some thousands of calls, so one call of a fast operation (a 10k-row IN, 64 queries) left its
   * first samples to the interpreter and the compiler (at 10k rows, 2–4× the warm time).
   * @default 0
   */
  readonly warmupMs?: number
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

/**
 * A case whose call returns a promise (a peer with an asynchronous API, such as NeDB): each call is
 * awaited before the next, and the time includes that wait, since a caller pays it too.
 */
export interface AsyncCase extends Omit<Case, 'run'> {
  readonly run: () => Promise<number>
  readonly async: true
}

export type AnyCase = Case | AsyncCase

/** One case's state while its group is timed. */
interface CaseState<C> {
  readonly c: C
  check: number
  inner: number
  samples: number[]
  error?: string
  slow?: boolean
}

const failed = <C>(c: C, e: unknown): CaseState<C> => ({
  c,
  check: NaN,
  inner: 0,
  samples: [],
  error: e instanceof Error ? `${e.name}: ${e.message}` : String(e),
})

/** The time past which one call of `c` is its only sample. */
const slowCallMs = (c: AnyCase, o: TimingOptions): number =>
  c.slowCallMs ?? o.slowCallMs ?? Infinity

/** After the warm-up: a slow first call is the only sample; otherwise calls per sample. */
function calibrated<C extends AnyCase>(c: C, check: number, once: number, o: TimingOptions) {
  const s: CaseState<C> = { c, check, inner: 1, samples: [] }
  if (once > slowCallMs(c, o)) {
    s.samples.push(once * (c.extrapolate ?? 1))
    s.slow = true
  } else s.inner = Math.max(1, Math.min(10_000, Math.ceil(o.minSampleMs / once)))
  return s
}

/** Ms per call over `s.inner` calls of a synchronous case (set-up, if any, outside the clock). */
function sampleSync(s: CaseState<Case>): number {
  let acc = 0
  let ms: number
  const prepare = s.c.prepare
  if (prepare) {
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
  return ms
}

/** The same for an asynchronous case: each call awaited in turn. */
async function sampleAsync(s: CaseState<AsyncCase>): Promise<number> {
  let acc = 0
  let total = 0
  for (let i = 0; i < s.inner; i++) {
    s.c.prepare?.()
    const t0 = nowMs()
    acc += await s.c.run()
    total += nowMs() - t0
  }
  sink = (sink + acc) | 0
  return total / s.inner
}

const timed = <C>(s: CaseState<C>): Timed<C> => ({
  case: s.c,
  samples: s.samples,
  median: median(s.samples),
  check: s.check,
  inner: s.inner,
  ...(s.error !== undefined ? { error: s.error } : {}),
  ...(s.slow ? { slow: true } : {}),
})

const sampled = (s: CaseState<unknown>): boolean => s.error === undefined && !s.slow

/** Whether the warm-up begun at `start` is still short of `warmupMs`. */
const warming = (start: number, o: TimingOptions): boolean => nowMs() - start < (o.warmupMs ?? 0)

/** Times every case of a group, interleaving their samples. */
export function timeCases(cases: readonly Case[], options: TimingOptions): Timed[] {
  const state = cases.map((c) => {
    try {
      // Warm-up calls, then one calibration call; each is timed, to catch a slow case early.
      let check = 0
      let once = 0
      const start = nowMs()
      for (let i = 0; i <= Math.max(0, options.warmup) || warming(start, options); i++) {
        c.prepare?.()
        const t0 = nowMs()
        check = c.run()
        once = Math.max(nowMs() - t0, 1e-3)
        if (once > slowCallMs(c, options)) break
      }
      return calibrated(c, check, once, options)
    } catch (e) {
      return failed(c, e)
    }
  })
  for (let r = 0; r < options.reps; r++)
    for (const s of state) if (sampled(s)) s.samples.push(sampleSync(s) * (s.c.extrapolate ?? 1))
  return state.map(timed)
}

/**
 * `timeCases` for groups where some cases are asynchronous: the same warm-up, calibration and
 * interleaving; a synchronous case's sample runs without any await inside the clock.
 */
export async function timeCasesAsync(
  cases: readonly AnyCase[],
  options: TimingOptions,
): Promise<Timed<AnyCase>[]> {
  const state: CaseState<AnyCase>[] = []
  for (const c of cases) {
    try {
      let check = 0
      let once = 0
      const start = nowMs()
      for (let i = 0; i <= Math.max(0, options.warmup) || warming(start, options); i++) {
        c.prepare?.()
        const t0 = nowMs()
        check = await c.run()
        once = Math.max(nowMs() - t0, 1e-3)
        if (once > slowCallMs(c, options)) break
      }
      state.push(calibrated(c, check, once, options))
    } catch (e) {
      state.push(failed(c, e))
    }
  }
  for (let r = 0; r < options.reps; r++)
    for (const s of state) {
      if (!sampled(s)) continue
      const ms =
        'async' in s.c
          ? await sampleAsync(s as CaseState<AsyncCase>)
          : sampleSync(s as CaseState<Case>)
      s.samples.push(ms * (s.c.extrapolate ?? 1))
    }
  return state.map(timed)
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

/**
 * Bytes in use after a full GC: the JS heap and the contents of typed arrays, which live outside
 * it (a column of a million vectors is a gigabyte that `heapUsed` never shows).
 */
export function usedBytes(): number {
  fullGc()
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

/** Used JS heap in MB after a full GC. */
export function heapMb(): number {
  fullGc()
  return process.memoryUsage().heapUsed / 1048576
}
