/**
 * @module 4D's character reference symbols on a text (dt_string.md, "Character Reference
 * Symbols"): `text[[n]]` read and assigned. Compiled code calls them on `rt` (runtime.ts puts
 * them on its prototype).
 */
import { raise } from '../errors/fourd-error.js'
import { toInteger } from '../values/numbers.js'
import { incompatible } from './arithmetic.js'

/** `text[[n]]`: the character at `n` (from 1). */
function charAt(text: unknown, n: unknown): string {
  if (typeof text !== 'string' || typeof n !== 'number') return incompatible('[[ ]]', text, n)
  const i = toInteger(n)
  if (i < 1 || i > text.length)
    return raise('InvalidIndex', { index: `${i} (text of ${text.length} characters)` })
  return text[i - 1]!
}

/**
 * `text[[n]]:=char`: the text with its character at `n` replaced by the first character of
 * `char`; `n` must address a character of the text.
 */
function withChar(text: unknown, n: unknown, char: unknown): string {
  charAt(text, n) // the same checks: a text, a number within it
  if (typeof char !== 'string') return incompatible('[[ ]]:=', text, char)
  const i = toInteger(n as number) - 1
  return (text as string).slice(0, i) + char.slice(0, 1) + (text as string).slice(i + 1)
}

export const charRefOps = { charAt, withChar }
