/**
 * @module Whether a regular expression may take more than linear time: JavaScript's engine, as
 * ICU's and PCRE's, backtracks, and a pattern such as `^([a-zA-Z0-9]+\s?)*$` (a real project's)
 * doubles its work with each letter of a text that fails at its end: 26 letters held the server
 * 2 s. Such patterns run under a bound of time (regex.ts); the others run as they are, at the
 * engine's full speed, which most patterns 4D code writes (`^\d{5}$`, `[A-Z][a-z]+`) are.
 *
 * Risky here, by a scan of the pattern (no full parse: a false "risky" costs a bounded run, a
 * false "safe" is what the scan must avoid):
 * - a group that holds a quantifier or an alternation, itself quantified without a bound
 *   (`(a+)+`, `(\w+\s?)*`, `(a|ab)*`): exponential;
 * - a back-reference (`\1`, `\k<name>`): no engine bounds those;
 * - two quantifiers without a bound or more (`\s*\s*$`, `a.*b.*c`), on a text past LONG_TEXT:
 *   polynomial, harmless on short texts.
 */

/** Characters past which a pattern's polynomial backtracking is worth a bound. */
const LONG_TEXT = 1_024

export interface PatternRisk {
  /** Backtracking that may grow exponentially with the text (or a back-reference). */
  readonly exponential: boolean
  /** Quantifiers without an upper bound. */
  readonly unbounded: number
}

/** The risk of `source` (a pattern as RegExp takes it). */
export function patternRisk(source: string): PatternRisk {
  // For each open group: whether it holds a quantifier or an alternation.
  const groups: boolean[] = []
  let exponential = false
  let unbounded = 0
  let inClass = false
  // Whether the last atom closed was a group holding a quantifier or an alternation.
  let lastGroupRisky = false
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!
    if (c === '\\') {
      const next = source[i + 1] ?? ''
      if (!inClass && (/[1-9]/.test(next) || next === 'k')) exponential = true
      i++
      lastGroupRisky = false
      continue
    }
    if (inClass) {
      if (c === ']') inClass = false
      continue
    }
    if (c === '[') {
      inClass = true
      lastGroupRisky = false
      continue
    }
    if (c === '(') {
      groups.push(false)
      lastGroupRisky = false
      continue
    }
    if (c === ')') {
      const risky = groups.pop() ?? false
      lastGroupRisky = risky
      // A group inside a risky-making group makes it hold something that repeats too.
      if (risky && groups.length > 0) groups[groups.length - 1] = true
      continue
    }
    if (c === '|') {
      if (groups.length > 0) groups[groups.length - 1] = true
      continue
    }
    const bound = quantifierAt(source, i)
    if (bound !== undefined) {
      if (bound.unbounded) {
        unbounded++
        if (lastGroupRisky) exponential = true
      }
      if (groups.length > 0 && bound.repeats) groups[groups.length - 1] = true
      i = bound.end - 1
      // A lazy or possessive mark belongs to the quantifier.
      if (source[i + 1] === '?' || source[i + 1] === '+') i++
      lastGroupRisky = false
      continue
    }
    lastGroupRisky = false
  }
  return { exponential, unbounded }
}

/** Whether `source` needs a bound of time on `text`. */
export function needsBound(risk: PatternRisk, text: string): boolean {
  return risk.exponential || (risk.unbounded >= 2 && text.length > LONG_TEXT)
}

// `*`, `+`, `?` or `{m,n}` at `i`: where it ends, whether it has no upper bound, whether it
// may repeat (more than once).
function quantifierAt(
  source: string,
  i: number,
): { end: number; unbounded: boolean; repeats: boolean } | undefined {
  const c = source[i]
  if (c === '*' || c === '+') return { end: i + 1, unbounded: true, repeats: true }
  if (c === '?') return { end: i + 1, unbounded: false, repeats: false }
  if (c !== '{') return undefined
  const m = /^\{(\d*)(,?)(\d*)\}/.exec(source.slice(i, i + 24))
  if (m === null || (m[1] === '' && m[3] === '')) return undefined
  const unbounded = m[2] === ',' && m[3] === ''
  const max = m[2] === '' ? Number(m[1]) : Number(m[3])
  return { end: i + m[0].length, unbounded, repeats: unbounded || max > 1 }
}
