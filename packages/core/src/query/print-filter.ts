/**
 * @module The inverse of parse-filter: prints an AST as canonical query text that parses back to
 * the same AST (`parseQuery(printQuery(q))` deep-equals `q` for any AST the factories build).
 *
 * Canonical means one spelling per meaning: symbol operators (`=`, `===`, `!=`, `!==`, `%`) and the
 * keywords `begin`, `IN`, `NOT (…)`, `AND`, `OR`, `EXCEPT`, `order by … asc|desc`; every string
 * single-quoted; dates unquoted. Used for logs, `$querypath` descriptions, saved filters and the
 * grammar's round-trip property test.
 */
import { fail } from '../errors/datastore-error.js'
import {
  OPERATOR_TEXT,
  pathText,
  type AttributePathNode,
  type FilterNode,
  type LiteralNode,
  type LogicalNode,
  type OrderByItemNode,
  type QueryNode,
  type ValueNode,
} from './ast.js'

// The grammar's Identifier and DateLiteral rules: anything else would not parse back.
const IDENTIFIER = /^[\p{ID_Start}_$][\p{ID_Continue}$]*$/u
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/
// Characters a reader could not see or that would break a line: controls, lone surrogates, U+2028/9.
const NON_PRINTABLE = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]/u

/** A whole query: the filter, then ` order by …` when there is an order. Empty for Query(null, []). */
export function printQuery(q: QueryNode): string {
  const parts: string[] = []
  if (q.filter) parts.push(printFilter(q.filter))
  if (q.orderBy.length > 0) parts.push(`order by ${printOrderBy(q.orderBy)}`)
  return parts.join(' ')
}

export function printFilter(f: FilterNode): string {
  switch (f.kind) {
    case 'Comparison':
      // A placeholder path prints as the placeholder it is (`:1 = 5`).
      return `${f.path.kind === 'Placeholder' ? printValue(f.path) : printPath(f.path)} ${OPERATOR_TEXT[f.op]} ${printValue(f.value)}`
    case 'Not':
      return `NOT (${printFilter(f.operand)})`
    case 'Logical':
      return printLogical(f)
  }
}

/** `path asc, path desc`: the `$orderby` form, also used after `order by`. */
export function printOrderBy(items: readonly OrderByItemNode[]): string {
  return items.map((item) => `${printPath(item.path)} ${item.direction}`).join(', ')
}

export function printValue(v: ValueNode): string {
  switch (v.kind) {
    case 'Literal':
      return printLiteral(v)
    case 'Placeholder':
      if (v.index !== undefined) {
        if (!Number.isSafeInteger(v.index) || v.index < 1)
          unprintable(`placeholder index ${v.index}`)
        return `:${v.index}`
      }
      if (!IDENTIFIER.test(v.name)) unprintable(`placeholder name ${JSON.stringify(v.name)}`)
      return `:${v.name}`
    case 'List':
      return `[${v.items.map(printValue).join(', ')}]`
  }
}

function printLogical(f: LogicalNode): string {
  if (f.operands.length === 0) unprintable('a logical node without operands')
  return f.operands
    .map((operand, i) =>
      needsParentheses(f, operand, i) ? `(${printFilter(operand)})` : printFilter(operand),
    )
    .join(` ${f.op.toUpperCase()} `)
}

/**
 * A nested logical node is parenthesised when its operator differs (precedence and EXCEPT's
 * left-to-right reading would regroup it), and when it is an EXCEPT right of the first operand:
 * `a EXCEPT (b EXCEPT c)` is not `a EXCEPT b EXCEPT c`. Same-operator AND / OR nests print flat,
 * which parses back to the flattened node the factory builds anyway.
 */
function needsParentheses(parent: LogicalNode, operand: FilterNode, index: number): boolean {
  if (operand.kind !== 'Logical') return false
  return operand.op !== parent.op || (operand.op === 'Except' && index > 0)
}

function printPath(path: AttributePathNode): string {
  for (const segment of path.segments) {
    if (!IDENTIFIER.test(segment.name))
      unprintable(`attribute name ${JSON.stringify(segment.name)}`)
    const letter = segment.collection?.letter
    if (letter != null && !/^[a-z]$/.test(letter))
      unprintable(`collection letter ${JSON.stringify(letter)}`)
    const index = segment.classIndex
    if (index !== undefined && (!Number.isSafeInteger(index) || index < 1 || segment.collection))
      unprintable(`class index ${index} of ${JSON.stringify(segment.name)}`)
  }
  if (path.segments.length === 0) unprintable('an empty attribute path')
  return pathText(path)
}

function printLiteral(v: LiteralNode): string {
  switch (v.type) {
    case 'string':
      return quote(v.value)
    case 'number':
      return printNumber(v.value)
    case 'boolean':
      return v.value ? 'true' : 'false'
    case 'null':
      return 'null'
    case 'date':
      if (!DATE.test(v.value)) unprintable(`date ${JSON.stringify(v.value)}`)
      return v.value
  }
}

/**
 * JSON's number form, which the grammar reads back exactly (`1e+21`, `5e-324` included), except
 * -0: JSON prints it as `0`, and the grammar keeps the sign of `-0`.
 */
function printNumber(n: number): string {
  if (!Number.isFinite(n)) unprintable(`number ${n}`)
  return Object.is(n, -0) ? '-0' : JSON.stringify(n)
}

/** Single-quoted, escaping `'`, `\` and non-printable characters (per UTF-16 unit) as \uXXXX. */
function quote(s: string): string {
  let out = "'"
  for (const c of s) {
    if (c === "'" || c === '\\') out += `\\${c}`
    else if (NON_PRINTABLE.test(c)) out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
    else out += c
  }
  return `${out}'`
}

function unprintable(what: string): never {
  return fail('Internal', [`cannot print ${what} as query text`])
}
