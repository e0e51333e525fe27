/**
 * @module The front door of the filter grammar: parses `$filter` / `query()` strings and `$orderby`
 * strings into the AST, and turns every parse failure into a DatastoreError.
 *
 * This is the only module that imports `grammar/generated/`. Whatever the input, callers get either
 * an AST or a DatastoreError: 1808/1809 for an unclosed quote (4D's REST codes), 1810 for a bad
 * `$orderby`, and FilterSyntax otherwise, with the position and a caret excerpt in `details`.
 */
import { LRUCache } from 'lru-cache'
import { fail } from '../errors/datastore-error.js'
import type { AttributePathNode, OrderByItemNode, QueryNode } from './ast.js'
import {
  parse,
  SyntaxError as PeggySyntaxError,
  type Expectation,
} from './grammar/generated/filter-parser.js'

// The grammar raises these with error(); the texts must match filter.peggy's initializer.
const UNCLOSED_SINGLE_QUOTE = 'Unclosed single quote'
const UNCLOSED_DOUBLE_QUOTE = 'Unclosed double quote'

/** Where a parse failed, for programs (the REST layer puts it in the error body). */
export interface FilterErrorDetails {
  readonly [key: string]: unknown
  /** 0-based offset in UTF-16 code units. */
  readonly offset: number
  /** 1-based line and column. */
  readonly line: number
  readonly column: number
  /** What the parser expected there, deduplicated, human-readable; empty for a custom message. */
  readonly expected: readonly string[]
  /** The character found there, or null at the end of the text. */
  readonly found: string | null
  /** The offending line with a caret under the error position. */
  readonly excerpt: string
}

/** Parses a `$filter` or `query()` string. `source` names the input in messages (`$filter`, `query()`). */
export function parseQuery(text: string, source = '$filter'): QueryNode {
  if (typeof text !== 'string')
    fail('FilterSyntax', [`${source} must be a string, not ${typeof text}`])
  try {
    return parse(text, { startRule: 'Query', grammarSource: source })
  } catch (e) {
    const issue = describeFailure(e, text)
    if (issue.message === UNCLOSED_SINGLE_QUOTE) {
      fail('UnclosedSingleQuote', [source], { details: issue.details, cause: e })
    }
    if (issue.message === UNCLOSED_DOUBLE_QUOTE) {
      fail('UnclosedDoubleQuote', [source], { details: issue.details, cause: e })
    }
    return fail('FilterSyntax', [issue.detail], { details: issue.details, cause: e })
  }
}

// Programs and clients order by the same few texts again and again (`salary desc`): parsing one
// was 28% of `dc.all().orderBy('salary desc').slice(0, 100)` on 10k rows (a CPU profile,
// 2026-11-24). Items are immutable, so a parsed text is kept; a failure is not (it throws).
const orderings = new LRUCache<string, readonly OrderByItemNode[]>({ max: 256 })

/** Parses a `$orderby` string: `path [asc|desc], ...`, at least one item. */
export function parseOrderBy(text: string, source = '$orderby'): readonly OrderByItemNode[] {
  if (typeof text !== 'string') fail('WrongOrderBy', [String(text), `${source} must be a string`])
  const kept = orderings.get(text)
  if (kept !== undefined) return kept
  try {
    const items = Object.freeze(parse(text, { startRule: 'OrderBy', grammarSource: source }))
    orderings.set(text, items)
    return items
  } catch (e) {
    const issue = describeFailure(e, text)
    return fail('WrongOrderBy', [text, issue.detail], { details: issue.details, cause: e })
  }
}

/**
 * Parses the text of one attribute path (`employer.name`, `roles.actor{2}.lastName`), as a path
 * placeholder's value gives it; undefined when it is not one, which names no attribute.
 */
export function parseAttributePath(text: string): AttributePathNode | undefined {
  try {
    return parse(text, { startRule: 'AttributePath' })
  } catch (e) {
    if (e instanceof PeggySyntaxError || e instanceof RangeError) return undefined
    throw e
  }
}

interface Failure {
  /** The bare message (peggy's, or the grammar's error() text). */
  readonly message: string
  /** The message plus its position, for the error text. */
  readonly detail: string
  readonly details: FilterErrorDetails | undefined
}

function describeFailure(e: unknown, text: string): Failure {
  if (e instanceof PeggySyntaxError) {
    const { offset, line, column } = e.location.start
    // error() in the grammar leaves `expected` null: its message is the whole story.
    const expected = e.expected ? describeExpected(e.expected) : []
    const found = offset < text.length ? String.fromCodePoint(text.codePointAt(offset)!) : null
    const message = e.expected
      ? `Expected ${listOr(expected)} but ${found === null ? 'end of input' : JSON.stringify(found)} found`
      : e.message
    return {
      message,
      detail: `${message} at line ${line}, column ${column}`,
      details: { offset, line, column, expected, found, excerpt: excerpt(text, line, column) },
    }
  }
  // Deep input can still overflow the stack of a caller that is already deep: report, never crash.
  if (e instanceof RangeError) {
    const message = 'the text is nested too deeply to parse'
    return { message, detail: message, details: undefined }
  }
  return fail('Internal', [`filter parser failed: ${String(e)}`], { cause: e })
}

function describeExpected(expected: readonly Expectation[]): string[] {
  const seen = new Set<string>()
  for (const x of expected) seen.add(describeExpectation(x))
  // Sorted for stable messages, with "end of input" last as the least interesting option.
  return [...seen].sort((a, b) =>
    a === 'end of input' ? 1 : b === 'end of input' ? -1 : a < b ? -1 : a > b ? 1 : 0,
  )
}

function describeExpectation(x: Expectation): string {
  switch (x.type) {
    case 'literal':
      return JSON.stringify(x.text)
    case 'class':
      return `[${x.inverted ? '^' : ''}${x.parts.map((p) => (typeof p === 'string' ? p : `${p[0]}-${p[1]}`)).join('')}]`
    case 'any':
      return 'any character'
    case 'end':
      return 'end of input'
    case 'other':
      return x.description
  }
}

function listOr(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? 'nothing'
  if (items.length === 2) return `${items[0]} or ${items[1]}`
  return `${items.slice(0, -1).join(', ')}, or ${items[items.length - 1]}`
}

const EXCERPT_RADIUS = 40

/** The error's line, cut to a window around the column on long lines, and a caret below. */
function excerpt(text: string, line: number, column: number): string {
  const source = text.split(/\r\n|\n|\r/)[line - 1] ?? ''
  const at = column - 1
  const start = Math.max(0, at - EXCERPT_RADIUS)
  const end = Math.min(source.length, at + EXCERPT_RADIUS)
  const head = start > 0 ? '…' : ''
  const tail = end < source.length ? '…' : ''
  // One space per code point; tabs stay tabs so the caret lands under the same tab stops.
  const pad = Array.from(head + source.slice(start, at), (c) => (c === '\t' ? c : ' ')).join('')
  return `${head}${source.slice(start, end)}${tail}\n${pad}^`
}
