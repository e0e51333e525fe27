/**
 * @module `Match regex(pattern; aString {; start {; *}})` (docs/commands-legacy/match-regex.md)
 * on JavaScript's regular expressions, which share ICU's syntax for what 4D code writes
 * (classes, groups, quantifiers, `\p{…}`, look-arounds). ICU's leading flags `(?i)`, `(?m)`,
 * `(?s)`, `(?x)` become the expression's flags (`x` removes the unescaped blanks and `#`
 * comments); those after a `-` (`(?m-si)`) are off, as JavaScript's are unless given. With two parameters the whole text must match; with `start` the search begins there
 * (from 1), and with `*` the match must begin exactly there. A pattern that does not compile
 * raises an error, as 4D's does.
 */
import { nodeBuiltin } from '../platform/node-builtins.js'
import { invalid } from '../arguments/arguments.js'
import { raise } from '../errors/fourd-error.js'
import { limits } from '../values/limits.js'
import { needsBound, patternRisk, type PatternRisk } from './regex-risk.js'

const MAX_KEPT = 256
const compiled = new Map<string, Bounded>()

// A pattern compiled, and how much it may backtrack (regex-risk.ts).
interface Bounded {
  readonly re: RegExp
  readonly risk: PatternRisk
}

function compile(pattern: string, mode: 'whole' | 'search' | 'sticky'): Bounded {
  const cacheKey = `${mode}\u0000${pattern}`
  const kept = compiled.get(cacheKey)
  if (kept !== undefined) return kept
  let re: RegExp
  let source = pattern
  let flags = ''
  // `(?m-si)`: the flags after the `-` turned off, which JavaScript's are unless given.
  const lead = /^\(\?([imsx]*)(?:-[imsx]*)?\)/.exec(source)
  if (lead && lead[0] !== '(?)') {
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
  const made = { re, risk: patternRisk(source) }
  compiled.set(cacheKey, made)
  return made
}

// A risky pattern runs in this context, whose `timeout` V8 enforces inside the engine's
// backtracking (research/preemption.md §2: a catastrophic match stopped at 50 ms), at about
// 46 µs a call; the others run at once.
// A page has no vm (issue 81): there a risky pattern runs at once, unbounded, as in a browser.
const vm = nodeBuiltin('node:vm')
const sandbox = vm?.createContext({ re: null as RegExp | null, text: '' })
const EXEC = vm && new vm.Script('re.exec(text)')

function exec({ re, risk }: Bounded, text: string): RegExpExecArray | null {
  if (sandbox === undefined || EXEC === undefined || !needsBound(risk, text)) return re.exec(text)
  const ms = limits().regexMs
  sandbox.re = re
  sandbox.text = text
  try {
    return EXEC.runInContext(sandbox, { timeout: ms }) as RegExpExecArray | null
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      return raise('RegexTooLong', { ms })
    throw e
  } finally {
    sandbox.re = null
    sandbox.text = ''
  }
}

/** The match (its 0-based index and length in `text`), or undefined. */
export function regexMatch(
  pattern: string,
  text: string,
  start: number | undefined,
  star: boolean,
): { index: number; length: number } | undefined {
  if (start === undefined) {
    const m = exec(compile(pattern, 'whole'), text)
    return m === null ? undefined : { index: 0, length: text.length }
  }
  const bounded = compile(pattern, star ? 'sticky' : 'search')
  const from = Math.max(0, start - 1)
  bounded.re.lastIndex = star ? from : 0
  const m = exec(bounded, star ? text : text.slice(from))
  if (m === null) return undefined
  return { index: star ? m.index : m.index + from, length: m[0].length }
}
