import { describe, expect, it } from 'vitest'
import { lineAndColumn, readJsonSyntaxError } from '../index.js'

/** The place of the SyntaxError JSON.parse throws for `text`. */
const placeOf = (text: string) => {
  try {
    JSON.parse(text)
  } catch (e) {
    return readJsonSyntaxError((e as Error).message, text.length)
  }
  throw new Error(`${text} parsed`)
}

describe('readJsonSyntaxError', () => {
  it('reads the position and drops it from the reason', () => {
    expect(
      readJsonSyntaxError("Expected ',' or '}' after property value in JSON at position 9", 20),
    ).toEqual({ reason: "Expected ',' or '}' after property value", position: 9 })
    expect(
      readJsonSyntaxError(
        "Expected ',' or '}' after property value in JSON at position 9 (line 2 column 4)",
        20,
      ),
    ).toEqual({ reason: "Expected ',' or '}' after property value", position: 9 })
    expect(
      readJsonSyntaxError('Unexpected non-whitespace character after JSON at position 7', 9),
    ).toEqual({ reason: 'Unexpected non-whitespace character after JSON', position: 7 })
  })

  it('puts an unexpected end at the end of the text, and gives no position for other forms', () => {
    expect(readJsonSyntaxError('Unexpected end of JSON input', 12)).toEqual({
      reason: 'Unexpected end of JSON input',
      position: 12,
    })
    const message = `Unexpected token 'x', "xyz" is not valid JSON`
    expect(readJsonSyntaxError(message, 3)).toEqual({ reason: message, position: undefined })
  })

  it("reads this runtime's own messages", () => {
    expect(placeOf('{"a": 1 "b": 2}').position).toBe(8)
    expect(placeOf('[1] x').position).toBe(4)
    expect(placeOf('[1, ').position).toBe(4)
  })
})

describe('lineAndColumn', () => {
  it('counts 1-based lines and columns, a line ending at LF, CR LF or a lone CR', () => {
    expect(lineAndColumn('abc', 0)).toEqual({ line: 1, column: 1 })
    expect(lineAndColumn('abc', 2)).toEqual({ line: 1, column: 3 })
    expect(lineAndColumn('a\nbc', 3)).toEqual({ line: 2, column: 2 })
    expect(lineAndColumn('a\r\nbc', 4)).toEqual({ line: 2, column: 2 })
    expect(lineAndColumn('a\rb\nc', 4)).toEqual({ line: 3, column: 1 })
  })

  it('counts UTF-16 code units, and takes a position past the end as the end', () => {
    expect(lineAndColumn('😀x', 2)).toEqual({ line: 1, column: 3 })
    expect(lineAndColumn('a\nb', 99)).toEqual({ line: 2, column: 2 })
  })
})
