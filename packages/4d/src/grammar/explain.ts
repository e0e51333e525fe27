/**
 * @module The message of a line that did not parse in its place. The grammar keeps such a line as
 * an `Unparsed` node and asks this module why: the line is parsed again alone (the grammar's
 * `LineCheck` rule), which either fails at a precise point (a syntax error, with 4D-style wording)
 * or succeeds, in which case the line is fine but its place is not (a block with no end, a member
 * in a method file, a statement outside any function).
 */
import type { Position } from '../ast/loc.js'
import { parse, SyntaxError as ParseError, type Expectation } from './generated/4d-parser.js'
import type { NameTable } from './name-table.js'

/** Where the line stood: in a block or body, at the top of a class, a member header, a method file. */
export type LineContext = 'statement' | 'class' | 'member' | 'method'

export interface LineProblem {
  readonly message: string
  /** The point of the failure, in the file's coordinates. */
  readonly at: Position
}

/** The line that ends each block, by the keyword that opens it. */
const BLOCK_ENDS: Readonly<Record<string, string>> = {
  If: 'End if',
  'Case of': 'End case',
  For: 'End for',
  'For each': 'End for each',
  While: 'End while',
  Repeat: 'Until',
  Try: 'End try',
  Use: 'End use',
}

/** What spacing and comments may stand anywhere: listing them as expected says nothing. */
const SPACING = new Set(['a character', '"/*"', '"\\\\"', '"//"', '"`"'])

/** What may start an expression besides an atom: implied when an expression is expected. */
const OPERAND_START = new Set(['"("', '"-"', '"+"', '"->"'])

/** The most expected items a message lists; past it, it names only what was found. */
const MAX_LISTED = 4

/** Why `text` (a logical line starting at `start` of its file) did not parse where it stands. */
export function explainLine(
  text: string,
  start: Position,
  context: LineContext,
  methods?: NameTable<string>,
): LineProblem {
  const indent = /^[ \t]*/.exec(text)![0].length
  const lineStart = {
    line: start.line,
    column: start.column + indent,
    offset: start.offset + indent,
  }
  let kind: string
  try {
    kind = parse(text, { startRule: 'LineCheck', methods })
  } catch (error) {
    if (!(error instanceof ParseError)) throw error
    const at = translate(error.location.start, start)
    if (
      error.found === '"' &&
      !/"/.test(text.slice(error.location.start.offset + 1).split(/\r?\n|\r/)[0]!)
    )
      return { message: 'Text without its closing quote', at }
    return { message: syntaxMessage(error), at }
  }
  const end = BLOCK_ENDS[kind]
  if (end !== undefined) return { message: `${kind} without a matching ${end}`, at: lineStart }
  if (kind === 'member' && context === 'method')
    return {
      message:
        'Class members (Function, Class constructor, property, Alias) belong in a class file',
      at: lineStart,
    }
  if (kind === 'statement' && context === 'class')
    return { message: 'A statement outside any function or class constructor', at: lineStart }
  return { message: 'Syntax error', at: lineStart }
}

/** A point of the line (1-based line and column within `text`) in the file's coordinates. */
function translate(
  point: { line: number; column: number; offset: number },
  start: Position,
): Position {
  return point.line === 1
    ? {
        line: start.line,
        column: start.column + point.column - 1,
        offset: start.offset + point.offset,
      }
    : {
        line: start.line + point.line - 1,
        column: point.column,
        offset: start.offset + point.offset,
      }
}

function describe(expectation: Expectation): string {
  switch (expectation.type) {
    case 'literal':
      return JSON.stringify(expectation.text)
    case 'other':
      return expectation.description
    case 'end':
      return 'end of line'
    case 'any':
      return 'a character'
    case 'class':
      return 'a character'
  }
}

/** `Expected ")" or ";" but "x" found`, or `Unexpected "x"` when too much would be listed. */
function syntaxMessage(error: ParseError): string {
  const found =
    error.found === null || error.found === undefined || /^[\r\n]/.test(error.found)
      ? 'end of line'
      : JSON.stringify(error.found)
  let expected = [...new Set(error.expected.map(describe))].filter((d) => !SPACING.has(d))
  if (expected.includes('expression')) expected = expected.filter((d) => !OPERAND_START.has(d))
  if (expected.length === 0 || expected.length > MAX_LISTED)
    return `Syntax error: unexpected ${found}`
  const list =
    expected.length === 1
      ? expected[0]!
      : `${expected.slice(0, -1).join(', ')} or ${expected[expected.length - 1]!}`
  return `Expected ${list} but ${found} found`
}
