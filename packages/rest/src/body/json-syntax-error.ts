/**
 * @module Where a JSON.parse SyntaxError is: its reason and position read from V8's message, and a
 * position turned into a line and a column. The request-body reader uses it, and so does the
 * `entistore` command for model and data files.
 */

/** A JSON syntax error's reason, and its place in the text when the parser gave one. */
export interface JsonSyntaxErrorPlace {
  /** V8's message without its position part (not clipped: a caller that echoes it clips it). */
  readonly reason: string
  /** The UTF-16 offset of the error, or undefined when the message carries none. */
  readonly position: number | undefined
}

/**
 * The reason and position in V8's JSON.parse message: `Expected ',' or '}' after property value in
 * JSON at position 9` (newer V8 adds ` (line 2 column 4)`), `Unexpected non-whitespace character after
 * JSON at position 7`, or `Unexpected end of JSON input`, which is at the end of the text (`length`
 * long). Other forms (`Unexpected token 'x', "xyz" is not valid JSON`) carry no position.
 */
export function readJsonSyntaxError(message: string, length: number): JsonSyntaxErrorPlace {
  const at = /\s+(?:in JSON\s+)?at position (\d+)/.exec(message)
  if (at !== null) return { reason: message.slice(0, at.index), position: Number(at[1]) }
  return {
    reason: message,
    position: /^Unexpected end of JSON input/.test(message) ? length : undefined,
  }
}

/**
 * The 1-based line and column of a UTF-16 offset in `text`: a line ends at LF, CR LF or a lone CR
 * (the line endings JSON's whitespace allows), and a column counts UTF-16 code units, as V8's own
 * offsets do. An offset past the end is the end.
 */
export function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const end = Math.min(position, text.length)
  let line = 1
  let lineStart = 0
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: end - lineStart + 1 }
}
