/**
 * @module Text of the 4D source put into generated JavaScript: only ever as a string literal, made
 * by JSON.stringify (quotes, backslashes, control characters and lone surrogates escaped) with
 * U+2028 and U+2029 escaped too, so that no 4D text can end the literal or start code (research
 * §8.8, Handlebars' quotedString, Peggy's stringEscape).
 */
export const quote = (text: string): string =>
  JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')

/** A number as JavaScript source: never `Infinity` or `NaN`, which are global names. */
export function numberLiteral(value: number): string {
  if (Number.isNaN(value)) return '(0/0)'
  if (value === Infinity) return '(1/0)'
  if (value === -Infinity) return '(-1/0)'
  if (Object.is(value, -0)) return '(-0)'
  return value < 0 ? `(${String(value)})` : String(value)
}
