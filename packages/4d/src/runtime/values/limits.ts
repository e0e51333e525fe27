/**
 * @module The bounds that keep one piece of 4D code from ending the process. A 4D process that
 * asks for two billion elements fails alone; Node, asked the same, dies whole (V8's "invalid
 * size" and "invalid table size" are fatal, not errors: research/preemption.md §4), and so does a
 * regular expression compiled a few frames from the end of the stack. So the runtime refuses
 * such a size before V8 sees it, with a 4D error that `Try`/`Catch` sees, and the server serves
 * on. The bounds are the project's (`serve --project`'s settings, ProjectRunnerOptions.limits);
 * the running code's are current here while it runs, as the running context is (running.ts).
 *
 * The defaults sit far below V8's fatal sizes (about 1.7e8 elements, 2^29 characters) and far
 * above what an application keeps in one value: 16,777,216 elements hold a 4D array of every
 * row of a large table; 67,108,864 characters are a 128 MB text, whose flattening or upper-casing
 * takes about 55 ms here.
 */
import { raise } from '../errors/fourd-error.js'

export interface CodeLimits {
  /** 4D calls nested at once (methods, functions, formulas, getters, events). */
  readonly callDepth: number
  /** Elements of one collection or array. */
  readonly elements: number
  /** Characters of one text. */
  readonly textLength: number
  /** Bytes of one BLOB. */
  readonly blobBytes: number
  /** Entries one recursive listing or copy of a folder may meet. */
  readonly fileEntries: number
  /** Milliseconds one match of a pattern that may backtrack without end may run (regex-risk.ts). */
  readonly regexMs: number
}

export const DEFAULT_LIMITS: CodeLimits = Object.freeze({
  callDepth: 1_000,
  elements: 2 ** 24,
  textLength: 2 ** 26,
  blobBytes: 2 ** 28,
  fileEntries: 100_000,
  regexMs: 50,
})

let current: CodeLimits = DEFAULT_LIMITS

/** The bounds of the code running now (the defaults outside any project's). */
export function limits(): CodeLimits {
  return current
}

/** Runs `fn` under `bounds`, then restores the previous ones. */
export function withLimits<T>(bounds: CodeLimits, fn: () => T): T {
  if (bounds === current) return fn()
  const previous = current
  current = bounds
  try {
    return fn()
  } finally {
    current = previous
  }
}

/** `bounds` completed with the defaults, each checked to be a positive whole number. */
export function limitsOf(bounds: Partial<CodeLimits> | undefined): CodeLimits {
  if (bounds === undefined) return DEFAULT_LIMITS
  const out = { ...DEFAULT_LIMITS, ...bounds }
  for (const [name, value] of Object.entries(out))
    if (!(Number.isSafeInteger(value) && value > 0))
      throw new RangeError(`the code limit ${name} must be a positive whole number, not ${value}`)
  return Object.freeze(out)
}

// What each bound is called in its error: "a collection of 2000000000 elements".
const WHAT = {
  elements: 'elements',
  textLength: 'characters',
  blobBytes: 'bytes',
  fileEntries: 'entries',
} as const

/**
 * `size` when within the bound `kind` (`what` says of what, in the error: "a collection"); else
 * 4D's error (9439), which `Try` catches. A size that is not a number passes: its own command
 * says what it expected.
 */
export function withinLimit(kind: keyof typeof WHAT, what: string, size: number): number {
  const max = current[kind]
  if (size > max) raise('TooLarge', { what, size, unit: WHAT[kind], max })
  return size
}

/**
 * `text.split(separator)`, refused (9439) when it would make more parts than the bound: V8's
 * split of a long text into more than about 1.7e8 parts aborts the process. Only a text longer
 * than the bound can pass it, and only such a text is counted first.
 */
export function splitWithin(text: string, separator: string): string[] {
  const max = current.elements
  if (text.length >= max) {
    let parts = 1
    if (separator === '') parts = text.length
    else
      for (let at = text.indexOf(separator); at >= 0 && parts <= max; parts++)
        at = text.indexOf(separator, at + separator.length)
    withinLimit('elements', 'A collection', parts)
  }
  return text.split(separator)
}
