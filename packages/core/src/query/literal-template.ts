/**
 * @module Query texts that differ only in their literal values share one parse. Clients send the
 * same few filters with a different value each time (`code='C0012345'`, `salary>=50000 AND
 * salary<50010`): a cache of whole texts never hits, and the parse (4–8 µs) was most of the time of
 * a one-row query. So the quoted strings and plain numbers of a text are lifted out and replaced by
 * sentinels (`code='\uE000000'`); that template is parsed once, and each text of its shape gets the
 * template's tree with its own values put back in place of the sentinels' literals.
 *
 * Why the tree is the one a parse of the text itself would give: the grammar reads a quoted
 * string's content as opaque characters up to its closing quote, and a number token only through
 * the number rule and the character after it. So when, in the template's tree, every sentinel is a
 * whole literal of its own kind (a quoted string, a number) and appears nowhere else (not inside an
 * unquoted string, a name, a longer literal), the text took the same path through the grammar, with
 * its own values at those places. A template that fails the check, or does not parse, is never
 * used: those texts are parsed whole, as before (and so get their own errors).
 */
import { Ast, type FilterNode, type LiteralNode, type QueryNode, type ValueNode } from './ast.js'

/** A text's shape (its literals replaced by sentinels) and the values lifted out, in order. */
export interface Lifted {
  readonly template: string
  readonly values: readonly (string | number)[]
}

/** A parsed template: its tree, and the nodes on the way to a sentinel (the ones to copy). */
export interface Template {
  readonly tree: QueryNode
  /** The sentinel literal nodes, each with the index of the value it stands for. */
  readonly slots: ReadonlyMap<object, number>
  /** Nodes that hold a slot somewhere below: copied on the way down, the others shared. */
  readonly dirty: ReadonlySet<object>
}

// A private-use character no client text holds (a text that does is not templated).
const STRING_MARK = '\uE000'
// Numbers stand in as 0.7390851332nnn: a value typed texts do not hold (those that do are not
// templated), fixed-width so that no two sentinels are the same number.
const NUMBER_MARK = '7390851332'
const numberSentinel = (k: number): string => `0.${NUMBER_MARK}${String(k).padStart(3, '0')}`
const stringSentinel = (k: number): string => `${STRING_MARK}${String(k).padStart(3, '0')}`

/** Longer texts, or texts with more literals, are parsed whole: their templates would seldom repeat. */
const MAX_TEXT = 2048
const MAX_VALUES = 64
/** A number is lifted only when short enough to stay finite and exact as written. */
const MAX_NUMBER = 20

// Where a lifted number may start (after an operator, a separator, whitespace) and what must follow
// it: the characters that end a bare value both inside and outside a list.
const NUMBER_BEFORE = new Set([...' \t\n\r([,=<>!#%&|'])
const NUMBER_AFTER = new Set([...' \t\n\r()&|,]'])
const NUMBER = /-?[0-9]+(?:\.[0-9]+)?/y
// The places a literal may start: a quote, a minus sign, a digit.
const CANDIDATE = /['"\-0-9]/g

/**
 * `text` with its quoted strings (without escapes) and plain numbers lifted out, or undefined when
 * it is not worth a template (too long, no literal, a character that could pass for a sentinel, a
 * quoted string with a backslash or no closing quote).
 */
export function liftLiterals(text: string): Lifted | undefined {
  if (text.length > MAX_TEXT || text.includes(STRING_MARK) || text.includes(NUMBER_MARK))
    return undefined
  const values: (string | number)[] = []
  let template = ''
  let from = 0
  CANDIDATE.lastIndex = 0
  for (let m = CANDIDATE.exec(text); m; m = CANDIDATE.exec(text)) {
    const i = m.index
    const c = m[0]
    if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1)
      if (close < 0) return undefined
      const content = text.slice(i + 1, close)
      if (content.includes('\\') || values.length === MAX_VALUES) return undefined
      template += text.slice(from, i) + c + stringSentinel(values.length) + c
      values.push(content)
      CANDIDATE.lastIndex = from = close + 1
      continue
    }
    if (i > 0 && !NUMBER_BEFORE.has(text[i - 1]!)) continue
    NUMBER.lastIndex = i
    const number = NUMBER.exec(text)?.[0]
    if (number === undefined || number.length > MAX_NUMBER) continue
    const end = i + number.length
    if (end < text.length && !NUMBER_AFTER.has(text[end]!)) continue
    if (values.length === MAX_VALUES) return undefined
    template += text.slice(from, i) + numberSentinel(values.length)
    values.push(Number(number))
    CANDIDATE.lastIndex = from = end
  }
  if (values.length === 0) return undefined
  return { template: template + text.slice(from), values }
}

/**
 * The template `tree` (the parse of `liftLiterals(…).template`) if every sentinel of `lifted` is a
 * whole literal of its kind, once, and no sentinel shows anywhere else; undefined otherwise.
 */
export function checkTemplate(tree: QueryNode, lifted: Lifted): Template | undefined {
  const { values } = lifted
  const numbers = new Map<number, number>()
  values.forEach((v, k) => {
    if (typeof v === 'number') numbers.set(Number(numberSentinel(k)), k)
  })
  const slots = new Map<object, number>()
  const dirty = new Set<object>()
  const seen = new Set<number>()
  let sound = true
  const marked = (s: string): boolean => s.includes(STRING_MARK) || s.includes(NUMBER_MARK)
  // Returns whether `node` holds a slot. Depth is bounded by the grammar's nesting limit.
  const walk = (node: unknown): boolean => {
    if (typeof node === 'string') {
      if (marked(node)) sound = false
      return false
    }
    if (typeof node !== 'object' || node === null) return false
    if ((node as { kind?: unknown }).kind === 'Literal') {
      const literal = node as LiteralNode
      let k: number | undefined
      if (literal.type === 'string' && marked(literal.value)) {
        k = Number(literal.value.slice(STRING_MARK.length))
        if (typeof values[k] !== 'string' || stringSentinel(k) !== literal.value)
          return (sound = false)
      } else if (literal.type === 'number') k = numbers.get(literal.value)
      else walk(literal.value)
      if (k === undefined) return false
      if (seen.has(k)) sound = false
      seen.add(k)
      slots.set(node, k)
      return true
    }
    let holds = false
    for (const child of Array.isArray(node) ? node : Object.values(node))
      holds = walk(child) || holds
    if (holds) dirty.add(node)
    return holds
  }
  walk(tree)
  return sound && seen.size === values.length ? { tree, slots, dirty } : undefined
}

/** The tree of a text of `template`'s shape: its values in place of the sentinels. */
export function fillTemplate(template: Template, values: readonly (string | number)[]): QueryNode {
  const { slots, dirty } = template
  // Each kind copied with the factories' own member order (ast.ts); subtrees without a slot shared.
  const value = <V extends ValueNode>(node: V): V => {
    const k = slots.get(node)
    if (k !== undefined) {
      const v = values[k]!
      return (
        typeof v === 'string'
          ? Ast.literal({ type: 'string', value: v })
          : Ast.literal({ type: 'number', value: v })
      ) as V
    }
    if (node.kind !== 'List' || !dirty.has(node)) return node
    return Object.freeze({ kind: 'List', items: Object.freeze(node.items.map(value)) }) as V
  }
  const filter = (node: FilterNode): FilterNode => {
    if (!dirty.has(node)) return node
    switch (node.kind) {
      case 'Comparison':
        return Object.freeze({
          kind: 'Comparison',
          path: node.path,
          op: node.op,
          value: value(node.value),
        })
      case 'Logical':
        return Object.freeze({
          kind: 'Logical',
          op: node.op,
          operands: Object.freeze(node.operands.map(filter)),
        })
      case 'Not':
        return Object.freeze({ kind: 'Not', operand: filter(node.operand) })
    }
  }
  const { tree } = template
  return Object.freeze({
    kind: 'Query',
    filter: tree.filter && filter(tree.filter),
    orderBy: tree.orderBy,
  })
}
