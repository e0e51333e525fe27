/**
 * @module `Match regex(pattern; aString {; start {; *}})` (docs/commands-legacy/match-regex.md)
 * on JavaScript's regular expressions, which share ICU's syntax for what 4D code writes
 * (classes, groups, quantifiers, `\p{…}`, look-arounds). ICU's leading flags `(?i)`, `(?m)`,
 * `(?s)`, `(?x)` become the expression's flags (`x` removes the unescaped blanks and `#`
 * comments). With two parameters the whole text must match; with `start` the search begins there
 * (from 1), and with `*` the match must begin exactly there. A pattern that does not compile
 * raises an error, as 4D's does.
 */
import { invalid } from '../arguments/arguments.js'

const MAX_KEPT = 256
const compiled = new Map<string, RegExp>()

function compile(pattern: string, mode: 'whole' | 'search' | 'sticky'): RegExp {
  const cacheKey = `${mode}\u0000${pattern}`
  let re = compiled.get(cacheKey)
  if (re !== undefined) return re
  let source = pattern
  let flags = ''
  const lead = /^\(\?([imsx]+)\)/.exec(source)
  if (lead) {
    source = source.slice(lead[0].length)
    for (const f of lead[1]!) if (f !== 'x') flags += f
    if (lead[1]!.includes('x'))
      source = source.replace(/\\#|\\\s|#[^\n]*|\s+/g, (m) => (m.startsWith('\\') ? m : ''))
  }
  if (mode === 'whole') source = `^(?:${source})$`
  if (mode === 'sticky') flags += 'y'
  try {
    re = new RegExp(source, `${flags}u`)
  } catch {
    try {
      re = new RegExp(source, flags)
    } catch (e) {
      return invalid('Match regex', 'pattern', e instanceof Error ? e.message : String(e))
    }
  }
  if (compiled.size >= MAX_KEPT) compiled.clear()
  compiled.set(cacheKey, re)
  return re
}

/** The match (its 0-based index and length in `text`), or undefined. */
export function regexMatch(
  pattern: string,
  text: string,
  start: number | undefined,
  star: boolean,
): { index: number; length: number } | undefined {
  if (start === undefined) {
    const m = compile(pattern, 'whole').exec(text)
    return m === null ? undefined : { index: 0, length: text.length }
  }
  const re = compile(pattern, star ? 'sticky' : 'search')
  const from = Math.max(0, start - 1)
  re.lastIndex = star ? from : 0
  const m = re.exec(star ? text : text.slice(from))
  if (m === null) return undefined
  return { index: star ? m.index : m.index + from, length: m[0].length }
}
