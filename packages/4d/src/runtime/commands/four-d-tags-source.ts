/**
 * @module Reading the 4D code that transformation tags hold (docs/Tags/transformation-tags.md),
 * as text: where a string or a comment ends, the parenthesis that closes another, the arguments
 * of a call, the lines of a `4DCODE` block, and the tags' local variables made members of `This`.
 *
 * Why the last one: the code of a template runs through the run's compiler of formulas
 * (`compileFormula`, commands/formulas.ts), which refuses locals (4D error -10737: a formula made
 * from a text cannot reach a local by name). 4D gives a template "a dedicated set of local
 * variables" (process-4d-tags.md) that every tag of it reads and writes; here that set is the
 * object the tags' code runs with as `This` (four-d-tags-scope.ts), and `$name` is written
 * `This["name"]` before the text is compiled. Strings and comments are left as they are, and
 * so are the parameters (`$1`, `${2}`), which the formula receives as its own.
 */

/** A character of a 4D name (identifiers.md: letters, digits, `_`, and accented letters). */
const NAME_CHAR = /[A-Za-z0-9_\u00C0-\uFFEF]/
const NAME_START = /[A-Za-z_\u00C0-\uFFEF]/

/** The index just past the string literal that opens at `at` (a `"`); `\` escapes a character. */
export function stringEnd(text: string, at: number): number {
  let i = at + 1
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1
  return Math.min(i + 1, text.length)
}

/**
 * The index just past the comment that opens at `at` (`//` to the end of the line, `/*` to its
 * `*\/`), or -1 when no comment opens there.
 */
function commentEnd(text: string, at: number): number {
  if (text[at] !== '/') return -1
  if (text[at + 1] === '/') {
    const eol = text.slice(at).search(/[\r\n]/)
    return eol < 0 ? text.length : at + eol
  }
  if (text[at + 1] === '*') {
    const close = text.indexOf('*/', at + 2)
    return close < 0 ? text.length : close + 2
  }
  return -1
}

/**
 * The index of the `)` that closes the `(` at `open`, strings and nested parentheses skipped, or
 * -1 when none does (the `$4DEVAL(…)` syntax "supports matching pairs of enclosed quotes or
 * parenthesis").
 */
export function closingParen(text: string, open: number): number {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    const c = text[i]
    if (c === '"') i = stringEnd(text, i) - 1
    else if (c === '(') depth++
    else if (c === ')' && --depth === 0) return i
  }
  return -1
}

/** `a; f(b; c); "d;e"` → `a`, `f(b; c)`, `"d;e"`: the arguments of a call, trimmed. */
export function splitArguments(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let from = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '"') i = stringEnd(text, i) - 1
    else if (c === '(' || c === '[' || c === '{') depth++
    else if (c === ')' || c === ']' || c === '}') depth--
    else if (c === ';' && depth === 0) {
      parts.push(text.slice(from, i).trim())
      from = i + 1
    }
  }
  parts.push(text.slice(from).trim())
  return parts
}

/**
 * The statements of a `4DCODE` block, one a line: "split into lines accepting any line-ending
 * convention (cr, lf, or crlf)", comments removed, a line ending with `\` joined to the next (4D's
 * continuation), blank lines dropped.
 */
export function codeLines(block: string): string[] {
  let text = ''
  for (let i = 0; i < block.length;) {
    const c = block[i]!
    if (c === '"') {
      const end = stringEnd(block, i)
      text += block.slice(i, end)
      i = end
      continue
    }
    const end = commentEnd(block, i)
    if (end >= 0) {
      // A block comment may span lines: its line breaks stay, so the lines around stay apart.
      text += block.slice(i, end).replace(/[^\r\n]/g, '')
      i = end
      continue
    }
    text += c
    i++
  }
  return text
    .replace(/\\[ \t]*(\r\n|\r|\n)/g, '')
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
}

/** A local variable's name as written after `$` (`$name`), or undefined for a parameter (`$1`). */
export function localName(text: string): string | undefined {
  const match = /^\$([A-Za-z_\u00C0-\uFFEF][A-Za-z0-9_\u00C0-\uFFEF]*)$/.exec(text.trim())
  return match?.[1]
}

/** `This["name"]`: how a template's local is written for the compiler (the module comment). */
export const localMember = (name: string): string => `This["${name}"]`

/** The code with each local `$name` written `This["name"]`; strings and comments unchanged. */
export function rewriteLocals(code: string): string {
  let out = ''
  for (let i = 0; i < code.length;) {
    const c = code[i]!
    if (c === '"') {
      const end = stringEnd(code, i)
      out += code.slice(i, end)
      i = end
      continue
    }
    const end = commentEnd(code, i)
    if (end >= 0) {
      out += code.slice(i, end)
      i = end
      continue
    }
    const before = i === 0 ? '' : code[i - 1]!
    if (c === '$' && NAME_START.test(code[i + 1] ?? '') && !NAME_CHAR.test(before)) {
      let j = i + 1
      while (j < code.length && NAME_CHAR.test(code[j]!)) j++
      out += localMember(code.slice(i + 1, j))
      i = j
      continue
    }
    out += c
    i++
  }
  return out
}
